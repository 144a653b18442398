/**
 * Round S of the rolling fresh sets for language precision, scene part: 65 scene questions written
 * blind by someone who had not read the query code, committed as written (round-s-scene.json, never
 * edited). Its first run is the round's figure: scenes correct 55 (84.6%), asked 5, missed 0, wrong 5
 * (round-s.first-run.txt). This gate holds the first-run level and may only be tightened.
 */
import { test } from 'node:test';
import { gateScenes } from './scene-heldout.ts';

test('round S scene questions: correct ≥ 55, wrong ≤ 5', { timeout: 900_000 }, async () => {
  await gateScenes('S', { size: 65, minCorrect: 55, maxWrong: 5 });
});
