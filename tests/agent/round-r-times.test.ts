/**
 * Round R, times (docs/decisions.md, "Round R: times"): a day word said with a range's end ("to 8 tomorrow morning")
 * leaves the start tonight's; a one-off watch from a clock start with no end is asked until when, the question offering
 * sunrise with its time, and the answer makes the watch; a spoken clock with its article ("from a quarter past nine
 * tonight"); thanks with a term of address closing a request ("thanks mate"); a start-only correction sends the end it
 * keeps. The phrasings beside them that
 * must keep their old reading are checked too. Phrasings are our own, not the set's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon, UTC in November): garage, driveway, backyard, porch, back door. Thursday 19 Nov 2026.
const at = (hhmm: string): HouseholdContext => ({ ...contexts.lisbon, now: Date.parse(`2026-11-19T${hhmm}:00Z`) });

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };
function window(turn: Turn, message: string): [string | undefined, string | undefined] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  return [starts_at?.slice(0, 16), ends_at?.slice(0, 16)];
}

async function expectWindow(ctx: HouseholdContext, messages: string[], start: string, end: string) {
  const turns = await converse(ctx, messages);
  const last = turns.at(-1)!;
  assert.deepEqual(window(last, messages.join(' / ')), [start, end], `${messages.join(' / ')}: ${last.reply}`);
  return turns;
}

async function expectAsked(ctx: HouseholdContext, message: string, says?: RegExp) {
  const [turn] = await converse(ctx, [message]);
  assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
  if (says) assert.match(turn.reply, says, message);
}

test("a day word said with the range's end does not move a 24-hour evening start to that day", async () => {
  await expectWindow(at('09:40'), ['watch the garage from 20 to 8 tomorrow morning'], '2026-11-19T20:00', '2026-11-20T08:00');
  await expectWindow(at('09:40'), ['watch the driveway from 21:30 until 7 tomorrow morning'], '2026-11-19T21:30', '2026-11-20T07:00');
  await expectWindow(at('09:40'), ['backyard from 22 to 6 tomorrow morning please'], '2026-11-19T22:00', '2026-11-20T06:00');
  // must not fire: a range inside the morning, or a day said before the range, is that day's
  await expectWindow(at('09:40'), ['watch the garage from 8 till 11 tomorrow morning'], '2026-11-20T08:00', '2026-11-20T11:00');
  await expectWindow(at('09:40'), ['watch the garage tomorrow from 20 to 23'], '2026-11-20T20:00', '2026-11-20T23:00');
});

test('a one-off watch from a clock start with no end is asked until when, sunrise offered with its time', async () => {
  await expectAsked(at('13:00'), 'watch the garage from 10pm', /From 22:00 until when should I watch the garage: until sunrise \(07:\d\d\)/);
  await expectAsked(at('13:00'), 'keep an eye on the driveway from 23:00', /until sunrise \(07:\d\d\)/);
  await expectWindow(at('13:00'), ['watch the garage from 10pm', 'till 6am'], '2026-11-19T22:00', '2026-11-20T06:00');
  const turns = await converse(at('13:00'), ['watch the backyard from 9pm', 'until sunrise']);
  const [start, end] = window(turns[1], 'watch the backyard from 9pm / until sunrise');
  assert.equal(start, '2026-11-19T21:00');
  assert.match(end ?? '', /^2026-11-20T07:/);
  // must not fire: a night word, a length, a repeat or an end said
  await expectWindow(at('13:00'), ['watch the garage tonight from 10pm'], '2026-11-19T22:00', end!);
  await expectWindow(at('13:00'), ['watch the garage from 10pm for 3 hours'], '2026-11-19T22:00', '2026-11-20T01:00');
  await expectWindow(at('13:00'), ['watch the garage from 10pm to 6am'], '2026-11-19T22:00', '2026-11-20T06:00');
  // the answer completes the request asked about, not the watch made before it; an edit of that watch stays an edit
  const added = await converse(at('13:00'), ['watch the garage tonight', 'also the driveway from 10pm', 'till 6am']);
  assert.equal(added[2].changes[0]?.tool, 'create_watch', added[2].reply);
  assert.deepEqual(window(added[2], 'till 6am'), ['2026-11-19T22:00', '2026-11-20T06:00']);
  const edited = await converse(at('13:00'), ['watch the garage tonight', 'actually make it from 9', 'till 6am']);
  assert.equal(edited[2].changes[0]?.tool, 'update_watch', edited[2].reply);
  const [weekly] = await converse(at('13:00'), ['watch the garage every night from 10pm']);
  assert.equal(weekly.changes.length, 1, weekly.reply);
});

test('a spoken clock said with its article is read as the start', async () => {
  await expectWindow(at('13:00'), ['watch the back door from a quarter past ten tonight until half past six'], '2026-11-19T22:15', '2026-11-20T06:30');
  await expectWindow(at('13:00'), ['watch the garage from a quarter to eleven tonight till 7'], '2026-11-19T22:45', '2026-11-20T07:00');
  // must not fire: "a quarter of an hour" is a length
  await expectWindow(at('13:00'), ['watch the garage for a quarter of an hour'], '2026-11-19T13:00', '2026-11-19T13:15');
});

test('thanks with a term of address close a request, and alone are thanks', async () => {
  await expectWindow(at('13:00'), ['driveway from 8pm till 6am thanks mate'], '2026-11-19T20:00', '2026-11-20T06:00');
  await expectWindow(at('13:00'), ['watch the garage from 9pm till 5am cheers buddy'], '2026-11-19T21:00', '2026-11-20T05:00');
  const [thanks] = await converse(at('13:00'), ['thanks mate']);
  assert.equal(thanks.changes.length, 0);
  assert.match(thanks.reply, /welcome/);
});

test('a start-only correction sends the end the watch keeps', async () => {
  const turns = await converse(at('13:00'), ['watch the garage tonight', 'actually make it from 9']);
  const created = turns[0].changes[0].args as { ends_at: string };
  const [start, end] = window(turns[1], 'actually make it from 9');
  assert.equal(start, '2026-11-19T21:00');
  assert.equal(end, created.ends_at.slice(0, 16));
});
