/**
 * The general causes behind round C's household failures (docs/decisions.md, "Round C household:
 * general causes"), each shown on sentences that are NOT in the round C set: a fix for one case
 * would fail here. Households from tests/heldout/round-c-household-contexts.json (Manchester `mcr`
 * at Thu 2026-11-26 13:40, Austin `atx` at 11:15, and their variants).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import { toWallClock } from '../../src/platform/time/zoned-time.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'round-c-household-contexts.json'));

type Change = { tool: string; args: Record<string, unknown> };

const converse = converseIn(contexts);

/** "2026-11-26 19:00" in the household's zone. */
function local(ctxName: string, iso: unknown): string {
  const w = toWallClock(Date.parse(String(iso)), contexts[ctxName].timeZone);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}`;
}

async function window(ctxName: string, message: string): Promise<{ from: string; to: string; change: Change }> {
  const [turn] = await converse(ctxName, [message]);
  assert.equal(turn.changes.length, 1, `"${message}": ${turn.reply}`);
  const change = turn.changes[0];
  return { from: local(ctxName, change.args.starts_at), to: local(ctxName, change.args.ends_at), change };
}

async function asks(ctxName: string, message: string, history: string[] = []): Promise<void> {
  const turns = await converse(ctxName, [...history, message]);
  const turn = turns.at(-1)!;
  assert.equal(turn.changes.length, 0, `acted on "${message}": ${JSON.stringify(turn.changes)}`);
  assert.ok(turn.plan.clarification, `"${message}" should ask: ${turn.reply}`);
}

test('time windows: evening ranges, the sun said in words, spoken quarters, fragments with a duration', async () => {
  assert.deepEqual(await window('mcr', 'watch the shed from 6 to 8 this evening').then((w) => [w.from, w.to]), ['2026-11-26 18:00', '2026-11-26 20:00']);
  assert.deepEqual(await window('mcr', 'keep an eye on the drive between 5 and 10 this evening').then((w) => [w.from, w.to]), [
    '2026-11-26 17:00',
    '2026-11-26 22:00',
  ]);
  // an end before the start on the clock face stays the morning's
  assert.deepEqual(await window('mcr', 'watch the hall from 10 this evening till 6').then((w) => [w.from, w.to]), ['2026-11-26 22:00', '2026-11-27 06:00']);
  assert.equal((await window('mcr', 'watch the garage until the sun comes up')).to, '2026-11-27 07:57');
  assert.equal((await window('atx', 'watch the den from half past 3 to quarter of 7 tonight')).from, '2026-11-26 15:30');
  assert.equal((await window('atx', 'watch the den from half past 3 to quarter of 7 tonight')).to, '2026-11-26 18:45');
  assert.equal((await window('mcr', 'watch the shed for a quarter of an hour')).to, '2026-11-26 13:55');
  assert.equal((await window('atx', 'garage camera, 45 minutes')).to, '2026-11-26 12:00');
  assert.equal((await window('atx', 'the den for the next 1.5 hours')).to, '2026-11-26 12:45');
  assert.deepEqual(await window('atx', 'watch the office 8 to 6 tomorrow').then((w) => [w.from, w.to]), ['2026-11-27 08:00', '2026-11-27 18:00']);
});

test('time windows: named nights, weekly day lists, leaving and coming back', async () => {
  const friday = await window('mcr_oct', 'watch the garage friday night');
  assert.equal(friday.from.slice(0, 10), '2026-10-23');
  assert.ok(friday.from > '2026-10-23 17:00' && friday.from < '2026-10-23 19:00', `sunset, not a fixed hour: ${friday.from}`);
  const weekends = await window('mcr', 'watch the drive every sat and sun night');
  assert.equal(weekends.change.args.recurrence, 'weekends');
  const weekdays = await window('mcr', 'watch the garage every monday to friday 9 to 5');
  assert.equal(weekdays.change.args.recurrence, 'weekdays');
  const [both] = await converse('mcr', ['watch the drive saturday and sunday nights']);
  assert.equal(both.changes.length, 2, both.reply);
  assert.deepEqual(
    both.changes.map((c) => local('mcr', c.args.starts_at).slice(0, 10)),
    ['2026-11-28', '2026-11-29'],
  );
  assert.deepEqual(await window('mcr', 'watch the house tonight please. we go out at 7 and we are back around 11').then((w) => [w.from, w.to]), [
    '2026-11-26 19:00',
    '2026-11-26 23:00',
  ]);
  assert.deepEqual(await window('mcr', 'watch the garage until 11 tonight').then((w) => [w.from, w.to]), ['2026-11-26 13:40', '2026-11-26 23:00']);
});

test('ambiguity is asked, never acted on', async () => {
  await asks('mcr', 'keep an eye on the garage until the builders have gone');
  await asks('mcr', 'watch the shed till he leaves');
  await asks('mcr', 'watch the hall on the 31st');
  await asks('mcr_late', 'watch the drive tomorrow evening');
  await asks('mcr', 'keep an eye on the garage this weekend');
  await asks('mcr', 'watch the shed');
  await asks('mcr_watching', 'switch everything off');
  await asks('mcr', 'mute the kitchen sensor');
  await asks('mcr', 'and the other one too', ['watch the drive tonight']);
});

test('edits are read as edits, and scope words keep what they name', async () => {
  const [end] = await converse('mcr_watching', ['end the garden watch at 9 instead of 10']);
  assert.deepEqual(
    end.changes.map((c) => c.tool),
    ['update_watch'],
    end.reply,
  );
  assert.equal(local('mcr', end.changes[0].args.ends_at), '2026-11-26 21:00');
  const [stop] = await converse('atx_watching', ['the porch one should stop at 4']);
  assert.deepEqual(
    stop.changes.map((c) => [c.tool, c.args.watch_id]),
    [['update_watch', 'wat_porch_parcel']],
  );
  const [, off] = await converse('mcr', ['watch the garage and the shed tonight', 'take the shed off']);
  assert.deepEqual(
    off.changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['update_watch', ['mcr_garage_cam']]],
  );
  const [made] = await converse('mcr', ['watch everything tonight but leave the nursery out']);
  assert.equal(made.changes.length, 1);
  assert.ok(!(made.changes[0].args.sensor_ids as string[]).includes('mcr_nursery_cam'));
  const [kept] = await converse('mcr_watching', ['stop all the watches but keep the shed one going']);
  assert.deepEqual(
    kept.changes.map((c) => c.args.watch_id),
    ['wat_drive_night', 'wat_garden_eve'],
  );
  const [apart] = await converse('atx', ['watch everything tonight other than the office']);
  assert.ok(!(apart.changes[0].args.sensor_ids as string[]).includes('atx_office_motion'));
  const [cams] = await converse('atx', ['watch all the cameras tonight except the garage']);
  assert.deepEqual(cams.changes[0].args.sensor_ids, ['atx_porch_cam', 'atx_drive_cam', 'atx_yard_cam', 'atx_den_cam']);
  const [atAll] = await converse('atx', ['tell me if anyone is in the den at all tonight']);
  assert.deepEqual(atAll.changes[0].args.sensor_ids, ['atx_den_cam']);
  const turns = await converse('mcr', ['is the garage or the shed better for the bikes?', 'watch the shed tonight', 'the other one as well']);
  assert.deepEqual(
    turns[2].changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['create_watch', ['mcr_garage_cam']]],
  );
});

test('"it" after a question is the place the question named; a declined watch is the one "watch it" means', async () => {
  const asked = await converse('mcr_watching', ['is the drive being watched?', 'end it at 11 tonight']);
  assert.deepEqual(
    asked[1].changes.map((c) => [c.tool, c.args.watch_id]),
    [['update_watch', 'wat_drive_night']],
    asked[1].reply,
  );
  assert.equal(local('mcr', asked[1].changes[0].args.ends_at), '2026-11-26 23:00');
  const seen = await converse('atx_watching', ['anything on the porch camera right now?', 'ok stop watching it']);
  assert.deepEqual(
    seen[1].changes.map((c) => [c.tool, c.args.watch_id]),
    [['stand_down_watch', 'wat_porch_parcel']],
    seen[1].reply,
  );
  const declined = await converse('mcr_private', ['can you watch the lounge tomorrow night?', 'unmute it and watch it then']);
  assert.deepEqual(
    declined[1].changes.map((c) => c.tool),
    ['unmute_sensor', 'create_watch'],
    declined[1].reply,
  );
  assert.equal(local('mcr', declined[1].changes[1].args.starts_at).slice(0, 10), '2026-11-27');
});

test('quoted text, statements, chit-chat and questions', async () => {
  const [fwd] = await converse('atx_watching', ["my wife sent me: 'turn every camera off for the party'. we're not doing that. watch the driveway tonight"]);
  assert.deepEqual(
    fwd.changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['create_watch', ['atx_drive_cam']]],
  );
  const [said] = await converse('mcr', ['watch the garage tonight. The bins are out and the gate is broken']);
  assert.equal(said.changes.length, 1);
  const [past] = await converse('mcr', ['watch the shed tonight please. Someone tried the garage door on Monday']);
  assert.deepEqual(
    past.changes.map((c) => c.args.sensor_ids),
    [['mcr_shed']],
  );
  for (const m of ['thanks so much!', 'merry christmas 🎄', 'good morning']) {
    const [chat] = await converse('mcr', [m]);
    assert.equal(chat.changes.length, 0);
    assert.ok(!chat.plan.clarification && chat.plan.answers?.length, `${m}: ${chat.reply}`);
  }
  const [muted] = await converse('mcr_watching', ['which sensors are muted?']);
  assert.match(muted.reply, /lounge camera is muted/);
  const [hush] = await converse('mcr', ['hush the drive camera for a bit']);
  assert.deepEqual(
    hush.changes.map((c) => [c.tool, c.args.sensor_id]),
    [['mute_sensor', 'mcr_drive_cam']],
  );
});
