/**
 * The gate for scene questions: the held-out questions written blind, asked through the
 * real route over their scenarios' detections, must be at least 90% correct with no wrong answer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatSummary, summarise } from './household-heldout.ts';
import { scoreScenes } from './scene-heldout.ts';

const CORRECT_MIN = 0.9;

test('scene held-out questions: correct ≥ 90%, wrong = 0', async () => {
  const results = await scoreScenes(join(import.meta.dirname, 'scene.json'));
  assert.ok(results.length >= 60, `only ${results.length} held-out scene questions`);
  console.log(formatSummary('scene held-out', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong answers`);
  assert.ok(total.correct / results.length >= CORRECT_MIN, `correct ${total.correct}/${results.length}`);
});
