/**
 * Round Q of the rolling fresh sets for language precision, scene part: 67 scene questions written
 * blind by someone who had not read the query code, committed as written (round-q-scene.json, never
 * edited). Its first run is the round's figure: scenes correct 60 (89.6%), asked 6, missed 0, wrong 1
 * (round-q.first-run.txt). This gate holds the first-run level and may only be tightened; tightened to
 * 66 correct, 0 wrong by the round Q scene fixes (docs/decisions.md, "Round Q: scene questions"), then
 * to 67 by arrivals at a clock moment (docs/decisions.md, "Before round R: scene questions").
 */
import { test } from 'node:test';
import { gateScenes } from './scene-heldout.ts';

test(
  'round Q scene questions: correct ≥ 67, wrong 0 (first run 60, 1 wrong; after the round Q scene fixes and before round R)',
  { timeout: 900_000 },
  async () => {
    await gateScenes('Q', { size: 67, minCorrect: 67, maxWrong: 0 });
  },
);
