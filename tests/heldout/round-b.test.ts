/**
 * Round B of the rolling fresh sets for language precision (docs/decisions.md, "Coverage before
 * action"): 128 household cases and 69 scene questions written blind by someone who had not read
 * the agent or the query code, sealed while the round's language work was done, and committed as
 * written (round-b-*.json, never edited). Its first run, round-b.first-run.txt, is the round's
 * figure: household correct 94 (73.4%), asked 22, missed 1, wrong 11; scenes correct 60 (87.0%),
 * asked 7, wrong 2. Its failure classes were then fixed as general causes (docs/decisions.md,
 * "One spoken-clock reader" and after): household correct 121 (94.5%), asked 6, missed 1,
 * wrong 0. Those are tuned figures, a regression floor, not a measure; the gate holds them.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';
import { gateScenes } from './scene-heldout.ts';

test('round B household set: correct ≥ 122, wrong 0', async () => {
  await gateHousehold('B', { size: 128, minCorrect: 122 });
});

// The scene half has since been worked on (docs/decisions.md, "Scene questions: the second round"):
// 69/69 after fixing general causes. That is a tuned figure, so this gate is a regression floor;
// the first run above stays the round's measure.
test('round B scene questions: correct = 69, wrong = 0', { timeout: 900_000 }, async () => {
  await gateScenes('B', { size: 69, minCorrect: 69 });
});
