/**
 * Two time slips found after round R (docs/decisions.md, "Round R: times"): an end said with its weekday ("till monday
 * 9am", "to tue 6am") ends on that weekday's next occurrence after the start, not the day after it; and "yes please" or
 * "sunrise is fine", said to the start-only question ("From 22:00 until when should I watch …: until sunrise (…)?"),
 * takes the sunrise it offered, "no" asks again. Phrasings are our own, with those where the change must not fire.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { converse, lisbonShop, windowOf } from './lisbon-workshop.ts';

/** A small corner shop in Lisbon (UTC in November): a stockroom, a loading bay and a shop floor. */
const shop = lisbonShop([{ name: 'stockroom' }, { name: 'loading bay' }, { name: 'shop floor' }], [
  { id: 'stock_cam', name: 'stockroom camera', kind: 'camera', room: 'stockroom', muted: false },
  { id: 'bay_cam', name: 'loading bay camera', kind: 'camera', room: 'loading bay', muted: false },
  { id: 'floor_motion', name: 'shop floor motion', kind: 'motion', room: 'shop floor', muted: false },
] as HouseholdContext['sensors']);

// Saturday 21 November 2026 and Monday 23 November 2026
const saturday = (hhmm: string): HouseholdContext => ({ ...shop, now: Date.parse(`2026-11-21T${hhmm}:00Z`) });
const monday = (hhmm: string): HouseholdContext => ({ ...shop, now: Date.parse(`2026-11-23T${hhmm}:00Z`) });

async function expectWindow(ctx: HouseholdContext, messages: string[], start: string, end: string) {
  const turns = await converse(ctx, messages);
  assert.deepEqual(windowOf(turns.at(-1)!, messages.join(' / ')), [start, end], `${messages.join(' / ')}: ${turns.at(-1)!.reply}`);
}

test("an end said with its weekday ends on that weekday's next occurrence after the start", async () => {
  await expectWindow(saturday('13:00'), ['watch the stockroom from 9pm till monday 9am'], '2026-11-21T21:00', '2026-11-23T09:00');
  await expectWindow(saturday('13:00'), ['keep an eye on the loading bay from 10pm until monday evening'], '2026-11-21T22:00', '2026-11-23T20:00');
  await expectWindow(saturday('13:00'), ['watch the shop floor from 8pm to tue 6am'], '2026-11-21T20:00', '2026-11-24T06:00');
  await expectWindow(monday('10:00'), ['watch the stockroom from 10pm to thu 7am'], '2026-11-23T22:00', '2026-11-26T07:00');
  await expectWindow(saturday('13:00'), ['watch the stockroom tonight from 10 till monday 6am'], '2026-11-21T22:00', '2026-11-23T06:00');
  // must not fire: the next day named, "tomorrow", a day said with the start, or no day at all
  await expectWindow(saturday('13:00'), ['watch the stockroom from 9pm till sunday 9am'], '2026-11-21T21:00', '2026-11-22T09:00');
  await expectWindow(saturday('13:00'), ['watch the loading bay from 7pm till 7am tomorrow'], '2026-11-21T19:00', '2026-11-22T07:00');
  await expectWindow(saturday('13:00'), ['watch the stockroom saturday 9pm till monday 9am'], '2026-11-21T21:00', '2026-11-23T09:00');
  await expectWindow(saturday('13:00'), ['watch the stockroom from 9pm till 9am'], '2026-11-21T21:00', '2026-11-22T09:00');
});

test('a short weekday is a word, never read as a slip of another', async () => {
  const [turn] = await converse(saturday('13:00'), ['watch the loading bay from 11pm to thurs 5am']);
  assert.deepEqual(windowOf(turn, 'thurs'), ['2026-11-21T23:00', '2026-11-26T05:00']);
  assert.doesNotMatch(turn.reply, /I read/, turn.reply);
});

test('taking the sunrise the start-only question offered makes the watch until sunrise', async () => {
  for (const answer of ['yes', 'yes please', 'Yeah, sunrise is fine', 'sunrise is fine', "that's fine", 'ok thanks', 'it’s fine']) {
    const turns = await converse(saturday('13:00'), ['watch the stockroom from 10pm', answer]);
    assert.match(turns[0].reply, /until sunrise \(07:\d\d\)/, answer);
    const [start, end] = windowOf(turns[1], answer);
    assert.equal(start, '2026-11-21T22:00', answer);
    assert.match(end ?? '', /^2026-11-22T07:/, `${answer}: ${turns[1].reply}`);
  }
  // the request asked about, not a watch made before it
  const added = await converse(saturday('13:00'), ['watch the shop floor tonight', 'also the loading bay from 11pm', 'yes please']);
  assert.equal(added[2].changes[0]?.tool, 'create_watch', added[2].reply);
  assert.deepEqual(added[2].changes[0]?.args.sensor_ids, ['bay_cam'], added[2].reply);
  assert.equal(windowOf(added[2], 'yes please')[0], '2026-11-21T23:00');
});

test('"no" to the sunrise offered asks again; other answers, and a yes to another question, read as before', async () => {
  const declined = await converse(saturday('13:00'), ['watch the stockroom from 10pm', 'no']);
  assert.equal(declined[1].changes.length, 0, declined[1].reply);
  assert.match(declined[1].reply, /^From 22:00 until when should I watch the stockroom: until sunrise/, declined[1].reply);
  // then an answer still makes the watch
  await expectWindow(saturday('13:00'), ['watch the stockroom from 10pm', 'nope', 'till 5am'], '2026-11-21T22:00', '2026-11-22T05:00');
  const again = await converse(saturday('13:00'), ['watch the stockroom from 10pm', 'no', 'yes']);
  assert.match(windowOf(again[2], 'no / yes')[1] ?? '', /^2026-11-22T07:/, again[2].reply);
  // an answer with its own time is that time
  await expectWindow(saturday('13:00'), ['watch the stockroom from 10pm', 'till 6am'], '2026-11-21T22:00', '2026-11-22T06:00');
  // must not fire: a yes after a watch made, after another question, or with more said
  for (const messages of [
    ['watch the stockroom tonight', 'yes'],
    ['watch the stockroom', 'yes please'],
    ['watch the stockroom from 10pm to 6am', "that's fine"],
  ]) {
    const turns = await converse(saturday('13:00'), messages);
    assert.equal(turns[1].changes.length, 0, `${messages.join(' / ')}: ${turns[1].reply}`);
  }
});
