/**
 * The time grammar's round G classes (docs/decisions.md, "Round G: the time grammar"): a night's
 * small hours, a range before "tomorrow <part of day>", "the same again" on another night, an
 * amount without its unit in a follow-up, windows that cannot be meant (asked, saying what does not
 * fit), an away window from the dates of leaving and coming back, a stay somewhere that is not the
 * home's location, and "what went on" about the past. Phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

// lisbon: Saturday 2026-11-21 17:00 Europe/Lisbon (UTC+0), sunset about 17:21; lisbon_night: Sunday 00:34
const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));

const converse = converseIn(contexts);

/** The window of the one watch a message creates, as UTC instants (Lisbon is UTC+0 in November). */
async function windowOf(context: string, message: string): Promise<[string, string]> {
  const [turn] = await converse(context, [message]);
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  assert.equal(turn.changes[0].tool, 'create_watch', `${message}: ${turn.reply}`);
  return [turn.changes[0].args.starts_at as string, turn.changes[0].args.ends_at as string];
}

test('the small hours of a night said by name are after that night’s evening', async () => {
  for (const message of ['watch the driveway 1 to 5 tonight', 'keep an eye on the garage from 2 till 5 tonight', 'tonight from 1am to 5am watch the porch']) {
    const [from, to] = await windowOf('lisbon', message);
    assert.match(from, /^2026-11-22T0[12]:00/, message);
    assert.equal(to, '2026-11-22T05:00:00.000Z', message);
  }
  assert.deepEqual(await windowOf('lisbon', 'watch the backyard 1 to 5 tomorrow night'), ['2026-11-23T01:00:00.000Z', '2026-11-23T05:00:00.000Z']);
  assert.deepEqual(await windowOf('lisbon', 'watch the backyard from 10 till 6 tomorrow night'), ['2026-11-22T22:00:00.000Z', '2026-11-23T06:00:00.000Z']);
  // said after midnight, "tonight" is the night in progress
  assert.deepEqual(await windowOf('lisbon_night', 'watch the garage 2 to 5 tonight'), ['2026-11-22T02:00:00.000Z', '2026-11-22T05:00:00.000Z']);
});

test('a part of the day after a range is the whole range’s, on the day named', async () => {
  assert.deepEqual(await windowOf('lisbon', 'watch the driveway 8 to 11 tomorrow morning'), ['2026-11-22T08:00:00.000Z', '2026-11-22T11:00:00.000Z']);
  assert.deepEqual(await windowOf('lisbon', 'watch the driveway 6 to 9 tomorrow evening'), ['2026-11-22T18:00:00.000Z', '2026-11-22T21:00:00.000Z']);
  assert.deepEqual(await windowOf('lisbon', 'watch the driveway 2 till 4 tomorrow afternoon'), ['2026-11-22T14:00:00.000Z', '2026-11-22T16:00:00.000Z']);
});

test('"the same again" on another night repeats what was set, and never what was only asked about', async () => {
  const [, again] = await converse('lisbon', ['watch the driveway 1 to 5 tonight', 'and the same again tomorrow night']);
  assert.deepEqual(
    again.changes.map((c) => [c.tool, c.args.starts_at, c.args.ends_at]),
    [['create_watch', '2026-11-23T01:00:00.000Z', '2026-11-23T05:00:00.000Z']],
    again.reply,
  );
  const [, night] = await converse('lisbon', ['watch the porch tonight', 'same again tomorrow']);
  assert.equal(night.changes.length, 1, night.reply);
  assert.match(night.changes[0].args.starts_at as string, /^2026-11-22T17:/);
  const [first, after] = await converse('lisbon', ['watch the driveway from 1 till blorp tonight', 'and the same again tomorrow night']);
  assert.ok(first.asked && first.changes.length === 0, first.reply);
  assert.ok(after.asked, after.reply);
  assert.deepEqual(after.changes, []);
});

test('an amount without its unit changes a watch set for hours; otherwise it is asked about', async () => {
  for (const [follow, end] of [
    ['make that three and a half', '2026-11-21T20:30:00.000Z'],
    ['make it 2.5 instead', '2026-11-21T19:30:00.000Z'],
    ['can you make it 1.75', '2026-11-21T18:45:00.000Z'],
  ]) {
    const [, turn] = await converse('lisbon', ['watch the garage for 2 hours', follow]);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.ends_at]),
      [['update_watch', end]],
      `${follow}: ${turn.reply}`,
    );
  }
  for (const first of ['watch the garage tonight', 'watch the garage for 45 minutes']) {
    const [, turn] = await converse('lisbon', [first, 'make that three and a half']);
    assert.ok(turn.asked, `${first}: ${turn.reply}`);
    assert.deepEqual(turn.changes, []);
  }
  // with its unit and no preposition, it is how long
  assert.deepEqual(await windowOf('lisbon', 'watch the garage two and a half hours'), ['2026-11-21T17:00:00.000Z', '2026-11-21T19:30:00.000Z']);
  assert.deepEqual(await windowOf('lisbon', 'watch the garage an hour and a half'), ['2026-11-21T17:00:00.000Z', '2026-11-21T18:30:00.000Z']);
});

test('a window that cannot be what was meant is asked about, saying what does not fit', async () => {
  for (const [message, said] of [
    ['watch the garage from 10 till 8 this morning', /08:00 this morning has already passed/],
    ['watch the porch until 11am today', /11:00 today has already passed/],
    ['watch the garage from 10 till 8 yesterday', /yesterday/],
    ['watch the porch from 9pm till 9pm', /no time at all/],
    ['watch the driveway from 10 tonight till 10 tonight', /no time at all/],
    ['watch the backyard tonight from sunset to 5pm', /Sunset tonight is at 17:\d\d, after 17:00/],
    ['watch the backyard from 6pm to sunset', /Sunset tonight is at 17:\d\d, before 18:00/],
  ] as const) {
    const [turn] = await converse('lisbon', [message]);
    assert.ok(turn.asked, `${message}: ${turn.reply}`);
    assert.deepEqual(turn.changes, [], message);
    assert.match(turn.reply, said, message);
  }
  // windows that do fit are still taken
  const [sunset, six] = await windowOf('lisbon', 'watch the garage from sunset to 6am');
  assert.match(sunset, /^2026-11-21T17:\d\d/);
  assert.equal(six, '2026-11-22T06:00:00.000Z');
  assert.deepEqual(await windowOf('lisbon', 'watch the garage today till 9'), ['2026-11-21T17:00:00.000Z', '2026-11-21T21:00:00.000Z']);
});

test('the dates of leaving and coming back said before "while we are away" are the window', async () => {
  assert.deepEqual(
    await windowOf('lisbon', 'We leave on the 24th at 7am and get back on the 27th around 8 in the evening. Please watch the garage while we are away'),
    ['2026-11-24T07:00:00.000Z', '2026-11-27T20:00:00.000Z'],
  );
  assert.deepEqual(await windowOf('lisbon', "we fly out on the 25th at 6am and land back on the 28th at 10pm. watch the driveway while we're gone"), [
    '2026-11-25T06:00:00.000Z',
    '2026-11-28T22:00:00.000Z',
  ]);
});

test('a stay somewhere by name is time away, not where the home is', async () => {
  for (const message of ["watch the garage next week while we're in Madeira", 'keep an eye on the porch while we are in Paris next week']) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.starts_at]),
      [['create_watch', '2026-11-23T00:00:00.000Z']],
      `${message}: ${turn.reply}`,
    );
  }
  const [open] = await converse('lisbon', ["watch the garage while we're in Madeira"]);
  assert.ok(open.asked && open.changes.length === 0, open.reply);
});

test('"what went on" is a question about the past, of the whole home when no place is named', async () => {
  const [turn] = await converse('lisbon', ['what went on between 2 and 4 this morning?']);
  const calls = turn.plan.calls.map((c) => [c.tool, c.args]);
  assert.deepEqual(calls, [['list_events', { since: '2026-11-21T02:00:00.000Z', until: '2026-11-21T04:00:00.000Z' }]], turn.reply);
  const [garage] = await converse('lisbon', ['what went on in the garage last night?']);
  assert.equal(garage.plan.calls[0]?.tool, 'list_events', garage.reply);
  assert.equal(garage.plan.calls[0]?.args.room, 'garage');
});
