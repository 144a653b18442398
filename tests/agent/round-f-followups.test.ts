/**
 * Follow-ups of round F (docs/decisions.md, "Round F household: safeguards before acting"): an
 * edit said of every watch ("all", "both") changes each; "never mind" and "I meant X" right after a
 * mute or a boundary correct that change. Phrasings are our own, not those of the blind sets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));

const converse = converseIn(contexts);

test('an edit said of every watch changes each of them', async () => {
  for (const message of ['extend all the watches until 9am tomorrow', 'make every watch end at 9am tomorrow']) {
    const [turn] = await converse('lisbon_watching', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      ['update_watch', 'update_watch', 'update_watch'],
      `${message}: ${turn.reply}`,
    );
    assert.deepEqual(
      turn.changes.map((c) => c.args.watch_id),
      ['wat_porch_tonight', 'wat_driveway_tonight', 'wat_garage_evening'],
    );
    for (const c of turn.changes) assert.equal(c.args.ends_at, '2026-11-22T09:00:00.000Z');
  }
});

test('"never mind" right after a mute or a boundary reverses it; after nothing it changes nothing', async () => {
  const [, muted] = await converse('lisbon', ['mute the backyard camera', 'oh never mind']);
  assert.deepEqual(muted.changes, [{ tool: 'unmute_sensor', args: { sensor_id: 'sen_backyard_cam' } }]);
  const [, cleared] = await converse('lisbon', ['stay out of the nursery', 'forget that, you can look at it again']);
  assert.deepEqual(cleared.changes, [{ tool: 'clear_boundary', args: { room: 'nursery' } }]);
  const [alone] = await converse('lisbon', ['never mind']);
  assert.deepEqual(alone.changes, []);
});

test('"I meant X" right after a mute or a boundary moves it to X; the same target again is no correction', async () => {
  const [, moved] = await converse('lisbon', ['mute the driveway camera', 'sorry, I meant the porch camera']);
  assert.deepEqual(moved.changes, [
    { tool: 'unmute_sensor', args: { sensor_id: 'sen_driveway_cam' } },
    { tool: 'mute_sensor', args: { sensor_id: 'sen_porch_cam' } },
  ]);
  const [, boundary] = await converse('lisbon', ['leave the living room alone', 'no, I meant the nursery']);
  assert.deepEqual(boundary.changes, [
    { tool: 'clear_boundary', args: { room: 'living room' } },
    { tool: 'set_boundary', args: { room: 'nursery' } },
  ]);
  const [, unknown] = await converse('lisbon', ['mute the driveway camera', 'no wait, I meant the attic camera']);
  assert.deepEqual(unknown.changes, []);
});

test('"X, not Y" names X: the "not" takes Y out and never turns the request around', async () => {
  // a correction of a watch of one place: the watch moves
  const [, moved] = await converse('lisbon', ['watch the driveway tonight', 'sorry, the porch, not the driveway']);
  assert.deepEqual(
    moved.changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['update_watch', ['sen_porch_cam']]],
  );
  assert.equal(moved.changes[0].args.conditions, undefined);
  // of a watch of two places: the place taken out is swapped, the other stays
  const [, swapped] = await converse('lisbon', ['watch the porch and the backyard tonight', 'no, the nursery not the backyard']);
  assert.deepEqual(
    swapped.changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['update_watch', ['sen_porch_cam', 'sen_nursery_cam']]],
  );
});

test('"same times" copies the hours of the watch the conversation is about', async () => {
  const [, copied] = await converse('lisbon_watching', ['is the garage being watched?', 'watch the nursery as well, same hours']);
  assert.deepEqual(
    copied.changes.map((c) => [c.tool, c.args.sensor_ids]),
    [['create_watch', ['sen_nursery_cam']]],
  );
  const garage = contexts.lisbon_watching.watches.find((w) => w.id === 'wat_garage_evening')!;
  assert.equal(copied.changes[0].args.starts_at, new Date(Date.parse(garage.starts_at)).toISOString());
  assert.equal(copied.changes[0].args.ends_at, new Date(Date.parse(garage.ends_at)).toISOString());
  // nothing to copy from among several watches: asked
  const [several] = await converse('lisbon_watching', ['watch the nursery too, same times']);
  assert.deepEqual(several.changes, []);
  assert.ok(several.asked);
});
