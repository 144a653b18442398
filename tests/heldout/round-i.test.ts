/**
 * Round I of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-i-household*.json, never edited). Its first run is the round's figure:
 * household correct 132/149 (88.6%), asked 9, missed 2, wrong 6 (round-i.first-run.txt). The set
 * is a regression set now, gated at the level reached after tuning against it (docs/decisions.md,
 * "Round I: words", "Round I: intent and safety", "Round I: the time grammar") and may only be tightened.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatSummary, loadHeldoutCases, loadHeldoutContexts, scoreHousehold, summarise } from './household-heldout.ts';

test('round I household set: correct ≥ 147, wrong 0 (tuned)', { timeout: 900_000 }, async () => {
  const contexts = loadHeldoutContexts(join(import.meta.dirname, 'round-i-household-contexts.json'));
  const cases = loadHeldoutCases(join(import.meta.dirname, 'round-i-household.json'));
  assert.equal(cases.length, 149);
  const results = await scoreHousehold(cases, contexts);
  console.log(formatSummary('round I household', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong actions`);
  assert.ok(total.correct >= 147, `correct ${total.correct}/${results.length}`);
});
