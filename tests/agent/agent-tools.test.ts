import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toOpenAiTools, validateToolArgs, TOOL_NAMES } from '../../src/home/agent/tools.ts';
import { lookupCity } from '../../src/home/agent/city-directory.ts';
import { formatLocal, fromWallClock } from '../../src/platform/time/zoned-time.ts';

test('every tool is offered as an OpenAI function with a JSON-schema object', () => {
  const tools = toOpenAiTools();
  assert.deepEqual(tools.map((t) => t.function.name).sort(), [...TOOL_NAMES].sort());
  const create = tools.find((t) => t.function.name === 'create_watch')!.function.parameters as { type: string; required: string[] };
  assert.equal(create.type, 'object');
  assert.ok(create.required.includes('sensor_ids') && create.required.includes('ends_at'));
});

test('tool arguments are validated the same way for every planner', () => {
  assert.deepEqual(validateToolArgs('mute_sensor', { sensor_id: 'sen_1' }), []);
  assert.ok(validateToolArgs('mute_sensor', {}).length > 0);
  assert.ok(validateToolArgs('set_boundary', {}).length > 0, 'a boundary needs a room or a sensor');
  assert.ok(
    validateToolArgs('create_watch', {
      subject: 'garage',
      sensor_ids: ['s'],
      starts_at: 'now',
      ends_at: '2026-11-22T07:27:00.000Z',
      recurrence: 'none',
      window: 'w',
    }).length > 0,
  );
  assert.ok(
    validateToolArgs('create_watch', {
      subject: 'garage',
      sensor_ids: ['s'],
      starts_at: '2026-11-21T17:00:00.000Z',
      ends_at: '2026-11-22T07:27:00.000Z',
      recurrence: 'hourly',
      window: 'w',
    }).length > 0,
  );
  assert.deepEqual(validateToolArgs('drop_tables', {}), ['unknown tool "drop_tables"']);
});

test('city names resolve offline to coordinates and a time zone; ambiguous ones are not guessed', () => {
  const lisbon = lookupCity('lisbon');
  assert.equal(lisbon.status, 'found');
  if (lisbon.status === 'found') {
    assert.equal(lisbon.timeZone, 'Europe/Lisbon');
    assert.ok(Math.abs(lisbon.lat - 38.72) < 0.1 && Math.abs(lisbon.lon + 9.14) < 0.1);
  }
  assert.equal(lookupCity('springfield').status, 'ambiguous');
  assert.equal(lookupCity('atlantis').status, 'unknown');
});

test('wall-clock times convert across a DST change in the household zone', () => {
  // Lisbon moves from UTC+0 to UTC+1 at 01:00 UTC on 2026-03-29
  const before = fromWallClock({ year: 2026, month: 3, day: 28, hour: 18, minute: 56 }, 'Europe/Lisbon');
  const after = fromWallClock({ year: 2026, month: 3, day: 29, hour: 7, minute: 27 }, 'Europe/Lisbon');
  assert.equal(new Date(before).toISOString(), '2026-03-28T18:56:00.000Z');
  assert.equal(new Date(after).toISOString(), '2026-03-29T06:27:00.000Z');
  assert.equal(formatLocal(after, 'Europe/Lisbon'), '2026-03-29T07:27');
});
