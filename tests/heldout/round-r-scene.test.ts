/**
 * Round R of the rolling fresh sets for language precision, scene part: 66 scene questions written
 * blind by someone who had not read the query code, committed as written (round-r-scene.json, never
 * edited). Its first run is the round's figure: scenes correct 65 (98.5%), asked 1, missed 0, wrong 0
 * (round-r.first-run.txt). This gate holds the first-run level and may only be tightened; tightened to
 * 66 correct by a part of the day in a past-tense question (docs/decisions.md, "Round R: scene questions").
 */
import { test } from 'node:test';
import { gateScenes } from './scene-heldout.ts';

test('round R scene questions: correct ≥ 66, wrong 0 (first run 65, 0 wrong)', { timeout: 900_000 }, async () => {
  await gateScenes('R', { size: 66, minCorrect: 66, maxWrong: 0 });
});
