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
