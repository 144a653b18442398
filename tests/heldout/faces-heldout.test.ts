/**
 * Face recognition phrasings held out: 10 cases written blind before the query and
 * agent language code was read. First run, before any tuning: see FIRST_RUN. Gate: no wrong answer
 * (a guessed name or a watch on the wrong person is the failure that matters), and ≥ 80% correct.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatSummary, loadHeldoutContexts, summarise } from './household-heldout.ts';
import { scoreFaces } from './faces-heldout.ts';

test('face held-out phrasings: wrong = 0, correct ≥ 80%', async () => {
  const contexts = loadHeldoutContexts(join(import.meta.dirname, 'household-contexts.json'));
  const results = await scoreFaces(join(import.meta.dirname, 'faces-heldout.json'), contexts);
  assert.equal(results.length, 10);
  console.log(formatSummary('face held-out', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong`);
  assert.ok(total.correct / results.length >= 0.8, `correct ${total.correct}/${results.length}`);
});
