/**
 * The gate for the household agent: the held-out requests written blind must be at least
 * 90% correct with no wrong action at all. The first-run and final scores are in docs/decisions.md, 'Household language understanding'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatSummary, loadHeldoutCases, loadHeldoutContexts, scoreHousehold, summarise } from './household-heldout.ts';

const CORRECT_MIN = 0.9;

test('household held-out requests: correct ≥ 90%, wrong = 0', async () => {
  const contexts = loadHeldoutContexts(join(import.meta.dirname, 'household-contexts.json'));
  const cases = loadHeldoutCases(join(import.meta.dirname, 'household.json'));
  assert.ok(cases.length >= 150, `only ${cases.length} held-out household cases`);
  const results = await scoreHousehold(cases, contexts);
  console.log(formatSummary('household held-out', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong actions`);
  assert.ok(total.correct / results.length >= CORRECT_MIN, `correct ${total.correct}/${results.length}`);
});
