/**
 * The animal detection type's gate for scene questions: questions about cats, dogs
 * and pets written blind by someone who had not read the query code, asked through the real route
 * over their scenarios' detections, must be at least 90% correct with no wrong answer.
 * First run, before any tuning: 29/33 correct, 3 asked, 1 judged wrong (a right "No cats were
 * seen" that the judge did not yet read as zero).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatSummary, summarise } from './household-heldout.ts';
import { scoreScenes } from './scene-heldout.ts';

const CORRECT_MIN = 0.9;

test('animal held-out questions: correct ≥ 90%, wrong = 0', async () => {
  const results = await scoreScenes(join(import.meta.dirname, 'scene-animals.json'));
  assert.ok(results.length >= 30, `only ${results.length} held-out animal questions`);
  console.log(formatSummary('animal held-out', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong answers`);
  assert.ok(total.correct / results.length >= CORRECT_MIN, `correct ${total.correct}/${results.length}`);
});
