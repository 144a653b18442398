/**
 * Round A of the rolling fresh sets (docs/decisions.md, "Rolling blind sets"), scene questions: written blind by someone who had not
 * read the query code, copied here unchanged from the blind set before it was used for anything
 * else. Its first run (round-a-scene.first-run.txt, on the code of that moment) is the figure that
 * counts; after that it is a regression set like the others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatSummary, summarise } from './household-heldout.ts';
import { scoreScenes } from './scene-heldout.ts';

const CORRECT_MIN = 0.95;
/** every round A question answered right since the first round of fixes (tuned: a regression floor) */
const CORRECT_COUNT_MIN = 64;

test('scene round A: wrong = 0, correct at the gated level', { timeout: 900_000 }, async () => {
  const results = await scoreScenes(join(import.meta.dirname, 'round-a-scene.json'));
  assert.ok(results.length >= 60, `only ${results.length} round A scene questions`);
  console.log(formatSummary('scene round A', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong answers`);
  assert.ok(total.correct / results.length >= CORRECT_MIN, `correct ${total.correct}/${results.length}`);
  assert.ok(total.correct >= CORRECT_COUNT_MIN, `correct ${total.correct}/${results.length}, gated at ${CORRECT_COUNT_MIN}`);
});
