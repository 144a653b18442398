import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findPlacesLeftAlone, redactTurn, REDACTED_REPLY } from '../../src/home/conversations/conversation-privacy.ts';
import type { HomeSnapshot } from '../../src/home/household/household.service.ts';
import type { TurnRow } from '../../src/home/conversations/conversation.repository.ts';

const at = '2026-11-21T12:00:00.000Z';
const sensor = (id: string, name: string, room_id: string, room: string) => ({
  id,
  tenant_id: 'hh_1',
  name,
  kind: 'camera' as const,
  room_id,
  room,
  location: room.replace(/ /g, '_'),
  scene_id: `scene_${id}`,
  source_type: 'sandbox',
  source_url: 'sandbox://x',
  sandbox: 1,
  status: 'online',
  muted: 0,
  muted_at: null,
  created_at: at,
});
const home: HomeSnapshot = {
  tenantId: 'hh_1',
  settings: {} as HomeSnapshot['settings'],
  rooms: [
    { id: 'room_n', tenant_id: 'hh_1', name: 'nursery', location: 'nursery', created_at: at, updated_at: at },
    { id: 'room_g', tenant_id: 'hh_1', name: 'garage', location: 'garage', created_at: at, updated_at: at },
  ],
  sensors: [sensor('stream_n', 'Nursery camera', 'room_n', 'nursery'), sensor('stream_g', 'Garage camera', 'room_g', 'garage')],
  boundaries: [
    { id: 'bnd_1', tenant_id: 'hh_1', room_id: 'room_n', sensor_id: null, set_at: at, set_by_key_id: 'key_1', cleared_at: null, cleared_by_key_id: null },
  ],
};
const turn = (over: Partial<TurnRow>): TurnRow => ({
  id: 'msg_1',
  conversation_id: 'conv_1',
  tenant_id: 'hh_1',
  seq: 1,
  key_id: 'key_1',
  message: 'm',
  reply: '',
  actions: '[]',
  planner: 'offline',
  status: 'completed',
  created_at: at,
  completed_at: at,
  revealed_sensor_ids: '[]',
  ...over,
});

test('a turn that showed a sensor now left alone is redacted; its changes and other turns are not', () => {
  const left = findPlacesLeftAlone(home);
  assert.deepEqual([...left.sensorIds], ['stream_n']);
  const shown = redactTurn(
    turn({
      reply: 'The nursery shows one person right now. I am watching the garage.',
      actions: JSON.stringify([
        { type: 'scene.described', subject: 'nursery', people: 1, vehicles: 0 },
        { type: 'watch.created', id: 'wat_1', subject: 'garage' },
      ]),
      revealed_sensor_ids: '["stream_n"]',
    }),
    left,
  );
  assert.equal(shown.redacted, true);
  assert.equal(shown.reply, REDACTED_REPLY);
  assert.deepEqual(JSON.parse(shown.actions), [
    { type: 'scene.described', subject: 'nursery', redacted: true },
    { type: 'watch.created', id: 'wat_1', subject: 'garage' },
  ]);
  const garage = redactTurn(
    turn({ reply: 'The garage shows nobody.', actions: '[{"type":"scene.described","subject":"garage","people":0}]', revealed_sensor_ids: '["stream_g"]' }),
    left,
  );
  assert.equal(garage.redacted, false);
  assert.equal(garage.reply, 'The garage shows nobody.');
  const boundary = redactTurn(turn({ reply: "I'll leave the nursery alone.", actions: '[{"type":"boundary.set","id":"bnd_1","room":"nursery"}]' }), left);
  assert.equal(boundary.redacted, false, 'that the boundary was set stays');
});

test('turns stored before migration 008 are judged by their words', () => {
  const left = findPlacesLeftAlone(home);
  const legacy = (reply: string, actions: unknown[]) => redactTurn(turn({ reply, actions: JSON.stringify(actions), revealed_sensor_ids: null }), left);
  assert.equal(legacy('One event in the nursery, newest first: 14:02 Nursery camera saw a person.', [{ type: 'events.listed', count: 1 }]).redacted, true);
  assert.equal(legacy('The nursery camera shows nobody.', [{ type: 'scene.described', subject: 'nursery camera', people: 0 }]).redacted, true);
  assert.equal(legacy('The garage shows nobody.', [{ type: 'scene.described', subject: 'garage', people: 0 }]).redacted, false);
  assert.equal(legacy("I'll leave the nursery alone.", [{ type: 'boundary.set', id: 'bnd_1' }]).redacted, false, 'no content action: a change, not a look');
  const lifted = findPlacesLeftAlone({ ...home, boundaries: [] });
  assert.equal(legacy('The nursery camera shows nobody.', [{ type: 'scene.described', subject: 'nursery' }]).redacted, true);
  assert.equal(
    redactTurn(turn({ reply: 'x', actions: '[{"type":"scene.described"}]', revealed_sensor_ids: '["stream_n"]' }), lifted).redacted,
    false,
    'lifted: readable again',
  );
});
