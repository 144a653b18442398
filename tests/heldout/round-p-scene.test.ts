/**
 * Round P of the rolling fresh sets for language precision, scene part: 67 scene questions written
 * blind by someone who had not read the query code, committed as written (round-p-scene.json, never
 * edited). Its first run is the round's figure: scenes correct 61 (91.0%), asked 5, missed 0, wrong 1
 * (round-p.first-run.txt). Nothing has been fixed against it yet: this gate holds the first-run level
 * and is to be tightened to 0 wrong once its cause is fixed.
 */
import { test } from 'node:test';
import { gateScenes } from './scene-heldout.ts';

test('round P scene questions: correct ≥ 61, wrong ≤ 1 (first run, not yet fixed)', { timeout: 900_000 }, async () => {
  await gateScenes('P', { size: 67, minCorrect: 62, maxWrong: 0 });
});
