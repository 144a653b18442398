/**
 * Round N household, times (docs/decisions.md, "Round N: times, follow-ups, arming"): "dark" said as a
 * start ("from dark", "once it's dark") is sunset, and a bare end hour after an evening sun start is the
 * morning's; one weekday left out of a repeating watch is asked about; "all weekend" is the coming
 * weekend (asked about, as "this weekend" is), not every one; an edit "10 to 4" on a 9-to-5 watch is a
 * range. The phrasings beside them that must keep their old reading are checked too. Phrasings are
 * our own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

// lisbon (Europe/Lisbon, UTC in November): front porch camera, driveway camera, back door contact,
// garage motion, backyard camera, living room camera, nursery camera. Saturday 21 Nov 2026, sunset 17:2x.
const midday: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-19T11:00:00Z') };

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };
function window(turn: Turn, message: string): [string, string] {
  assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at: string; ends_at: string };
  return [starts_at.slice(0, 16), ends_at.slice(0, 16)];
}

test('"dark" said as a start is sunset, and a bare end hour after it is the next morning', async () => {
  for (const message of [
    'watch the garage from dark till 6',
    'keep an eye on the driveway when it gets dark until 6',
    'watch the backyard once it is dark till 6am',
    'watch the garage from sundown to 6',
    'watch the driveway from when it gets dark til 6',
  ]) {
    const [turn] = await converse(midday, [message]);
    const [start, end] = window(turn, message);
    assert.match(start, /^2026-11-19T17:[0-3]\d$/, `${message}: ${turn.reply}`);
    assert.equal(end, '2026-11-20T06:00', `${message}: ${turn.reply}`);
  }
  // as the answer to "when should I watch …"
  const [asked, answer] = await converse(midday, ['watch the backyard', 'from dark til 6']);
  assert.equal(asked.changes.length, 0, asked.reply);
  assert.match(window(answer, 'from dark til 6')[0], /^2026-11-19T17:[0-3]\d$/, answer.reply);
});

test('"dark" beside other words keeps its old reading', async () => {
  // an end at dark: from now until sunset
  const [until] = await converse(midday, ['watch the garage until dark']);
  const [start, end] = window(until, 'until dark');
  assert.equal(start, '2026-11-19T11:00');
  assert.match(end, /^2026-11-19T17:[0-3]\d$/, until.reply);
  // a later evening hour after sunset stays that evening
  const [ten] = await converse(midday, ['watch the garage from sundown to 10']);
  assert.equal(window(ten, 'from sundown to 10')[1], '2026-11-19T22:00', ten.reply);
  // "it's dark in the garage" is not a time
  const [room] = await converse(midday, ["it's dark in the garage, watch it till 6am"]);
  assert.equal(window(room, 'dark in the garage')[0], '2026-11-19T11:00', room.reply);
});

test('one weekday left out of a repeating watch is asked about, never a stand-down', async () => {
  for (const message of ['but leave out fridays', 'drop wednesdays', 'stop it on thursdays', 'not tuesdays though, cancel those']) {
    const [, turn] = await converse(midday, ['watch the garage 9 to 5 on weekdays', message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
  }
  // the whole watch stood down, as before
  for (const message of ['stop watching the garage', 'cancel it']) {
    const [, turn] = await converse(midday, ['watch the garage 9 to 5 on weekdays', message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['stand_down_watch'],
      `${message}: ${turn.reply}`,
    );
  }
});

test('"all weekend" is the coming weekend, asked about; "on weekends" repeats', async () => {
  for (const message of ['watch the garage all weekend', 'keep an eye on the driveway the whole weekend', 'y’all watch the backyard all weekend']) {
    const [turn] = await converse(midday, [message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /weekend/i, turn.reply);
  }
  for (const message of ['watch the garage on weekends', 'watch the garage every weekend']) {
    const [turn] = await converse(midday, [message]);
    assert.equal(turn.changes.length, 1, `${message}: ${turn.reply}`);
    assert.equal(turn.changes[0].args.recurrence, 'weekends', message);
  }
});

test('an edit "10 to 4" on a 9-to-5 watch is the range; one that moves an end further is still asked about', async () => {
  for (const [message, want] of [
    ['actually make it 10 to 4', ['2026-11-20T10:00', '2026-11-20T16:00']],
    ['she says 10 to 5 now', ['2026-11-20T10:00', '2026-11-20T17:00']],
  ] as const) {
    const [, turn] = await converse(midday, ['watch the garage tomorrow 9 to 5', message]);
    assert.deepEqual(window(turn, message), want, `${message}: ${turn.reply}`);
  }
  for (const message of ['make it 10 to 7 instead', 'change it to 5 to 9', 'make it 20 to 4']) {
    const [, turn] = await converse(midday, ['watch the garage tomorrow 9 to 5', message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
    assert.match(turn.reply, /could be the time/, turn.reply);
  }
});

test('"(the) day after tomorrow" is two days on, with or without "the", a clock or a night', async () => {
  for (const [message, want] of [
    ['watch the garage day after tomorrow 7 to 9 in the evening', ['2026-11-21T19:00', '2026-11-21T21:00']],
    ['day after tomorrow watch the driveway 8 to 10pm', ['2026-11-21T20:00', '2026-11-21T22:00']],
    ['the day after tomorrow watch the driveway 8 to 10pm', ['2026-11-21T20:00', '2026-11-21T22:00']],
    ['watch the backyard the day after tomorrow from 6am to 10am', ['2026-11-21T06:00', '2026-11-21T10:00']],
  ] as const) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(window(turn, message), want, `${message}: ${turn.reply}`);
  }
  for (const message of ['watch the garage the day after tomorrow night', 'watch the garage day after tomorrow night']) {
    const [turn] = await converse(midday, [message]);
    assert.match(window(turn, message)[0], /^2026-11-21T17:/, `${message}: ${turn.reply}`);
  }
  // "tomorrow" alone is still tomorrow
  const [tomorrow] = await converse(midday, ['watch the garage tomorrow night']);
  assert.match(window(tomorrow, 'tomorrow night')[0], /^2026-11-20T17:/, tomorrow.reply);
});

test('"this morning till noon" said in the morning runs from now; a part not yet begun is still asked', async () => {
  const morning: HouseholdContext = { ...contexts.lisbon, now: Date.parse('2026-11-19T08:30:00Z') };
  for (const [message, end] of [
    ['watch the garage this morning till noon', '2026-11-19T12:00'],
    ['keep an eye on the driveway this morning until 11', '2026-11-19T11:00'],
  ] as const) {
    const [turn] = await converse(morning, [message]);
    assert.deepEqual(window(turn, message), ['2026-11-19T08:30', end], `${message}: ${turn.reply}`);
  }
  for (const message of ['watch the garage this afternoon till 5', 'watch the garage this morning']) {
    const [turn] = await converse(morning, [message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
  }
});

test('leaving said before "arm" with where to arms; leaving before "disarm" is asked', async () => {
  for (const message of ["we're heading to the match, arm it", 'we are leaving for Porto now, arm the place', 'headed to the airport, arm the house']) {
    const [turn] = await converse(midday, [message]);
    assert.deepEqual(
      turn.changes.map((c) => [c.tool, c.args.arm]),
      [['arm_house', true]],
      `${message}: ${turn.reply}`,
    );
  }
  const [armedTurn] = await converse(midday, ['arm the house']);
  assert.equal(armedTurn.changes.length, 1, armedTurn.reply);
  for (const message of ["we're heading to the match, disarm it", "we're off to work, disarm the house"]) {
    const [, turn] = await converse(midday, ['arm the house', message]);
    assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
  }
  const [, home] = await converse(midday, ['arm the house', "I'm home, disarm"]);
  assert.deepEqual(
    home.changes.map((c) => [c.tool, c.args.arm]),
    [['arm_house', false]],
    home.reply,
  );
});
