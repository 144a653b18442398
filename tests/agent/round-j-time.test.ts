/**
 * The time grammar's round J classes in the household agent (docs/decisions.md, "Round J household:
 * time"): "tonight" said after midnight, a part of the day said without hours, and an edit whose new
 * time could be its start or its end. Phrasings are our own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { formatLocal } from '../../src/platform/time/zoned-time.ts';
import { converseIn } from './converse-in.ts';

// lisbon: Saturday 2026-11-21 17:00 Europe/Lisbon (UTC+0); sunset 17:21, sunrise 07:27–07:28
const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const at = (iso: string): HouseholdContext => ({ ...contexts.lisbon, now: Date.parse(`${iso}Z`) });
const local = (iso: unknown) => formatLocal(Date.parse(String(iso)), 'Europe/Lisbon');
const windows = (turn: { changes: { args: Record<string, unknown> }[] }) => turn.changes.map((c) => [local(c.args.starts_at), local(c.args.ends_at)]);

test('"tonight" said from 02:00 until sunrise is the coming evening, and the reply says so', async () => {
  for (const now of ['2026-11-22T02:00', '2026-11-22T03:40', '2026-11-22T06:55']) {
    for (const message of ['watch the garage tonight', 'keep an eye on the porch tonight please', 'can you mind the backyard overnight']) {
      const [turn] = await converse(at(now), [message]);
      assert.equal(turn.changes.length, 1, `${now} ${message}: ${turn.reply}`);
      const [[from, to]] = windows(turn);
      assert.match(from, /^2026-11-22T17:2\d$/, `${now} ${message}`);
      assert.match(to, /^2026-11-23T07:2\d$/, `${now} ${message}`);
      assert.match(turn.reply, /coming night/, `${now} ${message}`);
      assert.match(turn.reply, /till morning/, `${now} ${message}`);
    }
  }
  // two nights said before sunrise start with the coming one
  const [two] = await converse(at('2026-11-22T05:30'), ['watch the driveway tonight and tomorrow night']);
  assert.deepEqual(
    two.changes.map((c) => local(c.args.starts_at).slice(0, 13)),
    ['2026-11-22T17', '2026-11-23T17'],
    two.reply,
  );
});

test('"tonight" said before 02:00 is the rest of the night in progress, and the reply says so', async () => {
  for (const now of ['2026-11-22T00:05', '2026-11-22T01:59']) {
    for (const message of ['watch the garage tonight', 'keep an eye on the back door tonight']) {
      const [turn] = await converse(at(now), [message]);
      assert.equal(turn.changes.length, 1, `${now} ${message}: ${turn.reply}`);
      const [[from, to]] = windows(turn);
      assert.equal(from, now, `${now} ${message}`);
      assert.match(to, /^2026-11-22T07:2\d$/, `${now} ${message}`);
      assert.match(turn.reply, /rest of this night/, `${now} ${message}`);
    }
  }
});

test('"till morning" and "until sunrise" said in the small hours still start now', async () => {
  for (const now of ['2026-11-22T00:30', '2026-11-22T02:00', '2026-11-22T04:15']) {
    for (const message of ['watch the garage till morning', 'keep an eye on the porch until sunrise', 'watch the driveway till the sun comes up']) {
      const [turn] = await converse(at(now), [message]);
      assert.equal(turn.changes.length, 1, `${now} ${message}: ${turn.reply}`);
      const [[from, to]] = windows(turn);
      assert.equal(from, now, `${now} ${message}`);
      assert.match(to, /^2026-11-22T07:2\d$/, `${now} ${message}`);
      assert.doesNotMatch(turn.reply, /coming night|rest of this night/, `${now} ${message}`);
    }
  }
});

test('"tonight" said in the afternoon or the late evening reads as before, with no note', async () => {
  const [afternoon] = await converse(at('2026-11-21T15:00'), ['watch the garage tonight']);
  assert.deepEqual(windows(afternoon)[0][0], '2026-11-21T17:21');
  assert.doesNotMatch(afternoon.reply, /coming night|rest of this night/);
  const [late] = await converse(at('2026-11-21T22:40'), ['watch the garage tonight']);
  assert.equal(windows(late)[0][0], '2026-11-21T22:40');
  assert.doesNotMatch(late.reply, /coming night|rest of this night/);
});

test('a part of the day said without hours is asked about, never a 24-hour watch', async () => {
  for (const [message, label] of [
    ['watch the garage tomorrow morning', /tomorrow morning/],
    ['keep an eye on the porch tomorrow afternoon', /tomorrow afternoon/],
    ['can you mind the driveway this evening', /this evening/],
    ['watch the backyard on monday afternoon', /Monday afternoon/],
    ['watch the garage wednesday evening', /Wednesday evening/],
    ['watch the porch in the morning', /tomorrow morning/],
    ['watch the garage tomorrow morning at 9', /tomorrow morning/],
  ] as const) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /Which hours/, message);
    assert.match(turn.reply, label, message);
  }
  // a part of the day already over is said to be over
  const [over] = await converse('lisbon', ['watch the garage this afternoon']);
  assert.deepEqual(over.changes, []);
  assert.match(over.reply, /already over/);
});

test("the answer's bare hours take the half of the day and the day the conversation named", async () => {
  for (const [first, answer, from, to] of [
    ['watch the garage tomorrow morning', 'from 8 till 11', '2026-11-22T08:00', '2026-11-22T11:00'],
    ['keep an eye on the porch tomorrow afternoon', '2 to 5', '2026-11-22T14:00', '2026-11-22T17:00'],
    ['keep an eye on the porch tomorrow afternoon', 'from 1 till 6', '2026-11-22T13:00', '2026-11-22T18:00'],
    ['can you mind the driveway this evening', '7 to 11', '2026-11-21T19:00', '2026-11-21T23:00'],
    ['watch the backyard on monday afternoon', 'from 2 till 4', '2026-11-23T14:00', '2026-11-23T16:00'],
    ['watch the garage tomorrow morning at 9', 'till 11', '2026-11-22T09:00', '2026-11-22T11:00'],
    ['watch the garage tomorrow morning until 11', 'from 8', '2026-11-22T08:00', '2026-11-22T11:00'],
  ] as const) {
    const [asked, acted] = await converse('lisbon', [first, answer]);
    assert.deepEqual(asked.changes, [], `${first}: ${asked.reply}`);
    assert.deepEqual(
      acted.changes.map((c) => c.tool),
      ['create_watch'],
      `${first} / ${answer}: ${acted.reply}`,
    );
    assert.deepEqual(windows(acted), [[from, to]], `${first} / ${answer}`);
  }
});

test('a part of the day with its hours, a night, or a part of the day as an end still act', async () => {
  for (const [message, from, to] of [
    ['watch the garage tomorrow morning from 8 till 11', '2026-11-22T08:00', '2026-11-22T11:00'],
    ['watch the garage 8 till 11 tomorrow morning', '2026-11-22T08:00', '2026-11-22T11:00'],
    ['watch the porch tomorrow afternoon for 2 hours from 2', '2026-11-22T14:00', '2026-11-22T16:00'],
    ['watch the garage saturday night 11 till 7 sunday morning', '2026-11-21T23:00', '2026-11-22T07:00'],
    ['watch the driveway till friday evening', '2026-11-21T17:00', '2026-11-27T18:00'],
    ['watch the driveway till tomorrow morning', '2026-11-21T17:00', '2026-11-22T08:00'],
  ] as const) {
    const [turn] = await converse('lisbon', [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.deepEqual(windows(turn), [[from, to]], message);
  }
  const [night] = await converse('lisbon', ['watch the garage tomorrow night']);
  assert.equal(night.changes.length, 1, night.reply);
  assert.match(windows(night)[0][0], /^2026-11-22T17:2\d$/);
});

test('an edit to a bare time with no start or end said is asked about; one that says which acts', async () => {
  // lisbon_watching (19:10) has wat_garage_evening, 19:00 to 23:00
  for (const message of [
    'change the garage one to 10',
    'can you change the garage watch to 9',
    'change the garage watch to 10pm',
    'could you change the garage one to half 9',
  ]) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /start or end/, message);
  }
  for (const [message, key] of [
    ['change the garage one to end at 10', 'ends_at'],
    ['make the garage one till 10', 'ends_at'],
    ['push the garage one to 11:30', 'ends_at'],
    ['change the garage one to start at 8', 'starts_at'],
  ] as const) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['update_watch'],
      `${message}: ${turn.reply}`,
    );
    assert.ok(key in turn.changes[0].args, message);
  }
});

test('"make that 3" after a watch set with one clock time changes that time; otherwise it asks', async () => {
  for (const [first, change, key, to] of [
    ['watch the garage till 2am', 'make that 3', 'ends_at', '2026-11-22T03:00'],
    ['watch the garage until 11', 'make it 10', 'ends_at', '2026-11-21T22:00'],
    // (a start with no end is asked until when since round R: "tonight" makes this one a watch with one clock time)
    ['watch the garage from 9pm tonight', 'make it 10', 'starts_at', '2026-11-21T22:00'],
  ] as const) {
    const [, turn] = await converse('lisbon', [first, change]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['update_watch'],
      `${first} / ${change}: ${turn.reply}`,
    );
    assert.equal(local(turn.changes[0].args[key]), to, `${first} / ${change}`);
  }
  // two clock times, a night, or 12 (noon or midnight): which is not said — asked
  for (const [first, change] of [
    ['watch the garage from 9pm till 6', 'make that 7'],
    ['watch the garage tonight', 'make that 3'],
    ['watch the garage till 11', 'make that 12'],
  ] as const) {
    const [, turn] = await converse('lisbon', [first, change]);
    assert.deepEqual(turn.changes, [], `${first} / ${change}: ${turn.reply}`);
  }
});

test('a daytime range with "tomorrow" after its end is tomorrow\'s, both ends; a night range keeps its start today', async () => {
  const morning: HouseholdContext = at('2026-11-21T07:05');
  for (const [message, from, to] of [
    ['watch the garage from 8 in the morning till half 5, tomorrow only', '2026-11-22T08:00', '2026-11-22T17:30'],
    ['keep an eye on the porch from 9am to 3 tomorrow', '2026-11-22T09:00', '2026-11-22T15:00'],
    ['watch the driveway from 8am till 5pm tomorrow', '2026-11-22T08:00', '2026-11-22T17:00'],
    ['watch the garage from 7pm till 7am tomorrow', '2026-11-21T19:00', '2026-11-22T07:00'],
  ] as const) {
    const [turn] = await converse(morning, [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.deepEqual(windows(turn), [[from, to]], message);
  }
  // "from 10am till 9 tomorrow": 21:00 the same day or 09:00 the next — asked
  const [open] = await converse(morning, ['watch the garage from 10am till 9 tomorrow']);
  assert.deepEqual(open.changes, [], open.reply);
});

test('hours said after a question that only mentioned a part of the day are not settled by it', async () => {
  const [, turn] = await converse('lisbon', ['what happened on the porch this morning?', 'watch the garage from 2 to 5']);
  assert.deepEqual(turn.changes, [], turn.reply);
  assert.match(turn.reply, /am or pm/);
});
