/**
 * "Is the side gate closed?" when the gate's contact has stopped reporting: its last state is said
 * as its last report, with when, never as the state now (docs/decisions.md, "Round H: scene questions").
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp } from './household-harness.ts';
import { contactSentence } from '../../src/home/household/contact-sentence.ts';

for (const dialect of DIALECTS) {
  test(`a contact that is offline gives its last report as the past, with when, not as the state now (${dialect})`, async () => {
    const t = await createHouseholdTestApp({ dialect, config: { mqtt: { allowPrivate: true, publish: null } } });
    try {
      const key = await t.householdKey({ name: 'Gate Home', mode: 'live' });
      const say = async (message: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
      const added = await say('add the side gate contact sensor at mqtt://127.0.0.1:1883/zigbee2mqtt/side_gate in the side gate');
      assert.equal(added.actions[0]?.type, 'sensor.added', added.reply);
      const id = added.actions[0].id as string;
      const { db } = t.ctx.database;
      const stream = await db.selectFrom('streams').select(['tenant_id', 'scene_id', 'location']).where('id', '=', id).executeTakeFirstOrThrow();
      const closedAt = Date.parse('2026-11-21T09:40:00.000Z');
      await db
        .insertInto('detections')
        .values({
          id: 'det_gate_closed',
          tenant_id: stream.tenant_id,
          stream_id: id,
          scene_id: stream.scene_id,
          location: stream.location,
          type: 'door_closed',
          subtype: null,
          value: null,
          count: null,
          confidence: 1,
          at: closedAt,
          track_id: null,
          dwell_s: null,
          zone: null,
          box: null,
        })
        .execute();

      await db.updateTable('streams').set({ status: 'live', error: null }).where('id', '=', id).execute();
      const live = await say('is the side gate closed?');
      assert.match(live.reply, /side gate is closed \(since 09:40/i, live.reply);

      await db
        .updateTable('streams')
        .set({ status: 'offline', error: 'battery flat', last_frame_at: '2026-11-21T09:40:00.000Z' })
        .where('id', '=', id)
        .execute();
      const offline = await say('is the side gate closed?');
      assert.match(offline.reply, /offline \(battery flat\) and has not reported since 09:40/, offline.reply);
      assert.match(offline.reply, /can't tell whether the side gate is open or closed now/, offline.reply);
      assert.match(offline.reply, /last report, at 09:40, was that the side gate was closed/, offline.reply);
      assert.doesNotMatch(offline.reply, /side gate is closed/i, offline.reply);
    } finally {
      await t.close();
    }
  });
}

test('the sentence for a contact not live: the day of its last report, and no state when it never reported', () => {
  const now = Date.parse('2026-12-04T14:20:00.000Z');
  const base = { subject: 'Side gate contact', sensor: 'side gate contact', now, timeZone: 'Europe/London' };
  const days = contactSentence({ ...base, status: 'offline', error: 'battery flat', heardAt: Date.parse('2026-12-02T21:40:00.000Z') });
  assert.equal(
    days,
    "Side gate contact is offline (battery flat) and has not reported since 21:40 on 2 December, so I can't tell whether it is open or closed now.",
  );
  const reconnecting = contactSentence({ ...base, status: 'reconnecting', last: { open: true, at: Date.parse('2026-12-03T08:00:00.000Z') } });
  assert.match(
    reconnecting,
    /^Side gate contact is reconnecting and has not reported since 08:00 yesterday, .* Its last report, at 08:00 yesterday, was that it was open\.$/,
  );
  assert.equal(contactSentence({ ...base, status: 'live' }), 'Side gate contact has not reported whether it is open or closed yet.');
});
