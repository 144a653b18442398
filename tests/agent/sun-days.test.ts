/**
 * A question about the sun on a day of the coming week is answered for that day; a day the question
 * does not read plainly ("next friday", "on the 3rd") is asked about, never answered as another day
 * (src/home/agent/sun-question.ts). Lisbon household: now is Sat 2026-11-21 17:00.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import SunCalc from 'suncalc';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import { formatClock } from '../../src/platform/time/index.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

test('sunset or sunrise on a weekday is that weekday’s, with its date; today’s weekday is today', async () => {
  const home = contexts.lisbon;
  const friday = SunCalc.getTimes(new Date('2026-11-27T12:00:00Z'), home.location!.lat, home.location!.lon).sunset.getTime();
  const clock = formatClock(Math.round(friday / 60_000) * 60_000, home.timeZone);
  for (const message of ['what time is sunset on friday', 'when is sunset this friday?', 'what time is sunset friday evening']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.match(turn.reply, new RegExp(`^Sunset on Friday 27 Nov is at ${clock}\\b`), `${message}: ${turn.reply}`);
  }
  const [sunday] = await converse('lisbon', ['when is sunrise on sunday?']);
  assert.match(sunday.reply, /^Sunrise on Sunday 22 Nov is at \d\d:\d\d/, sunday.reply);
  const [saturday] = await converse('lisbon', ['what time is sunset saturday']);
  assert.match(saturday.reply, /^Sunset tonight is at/, saturday.reply);
});

test('a day the sun question does not read is asked about, and nothing changes', async () => {
  for (const message of ['what time is sunset next friday', 'what time is sunset on fryday', 'when is sunrise on the 3rd']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], message);
    assert.equal(turn.asked, true, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /Which day did you mean/, `${message}: ${turn.reply}`);
  }
});
