/**
 * Round D of the rolling fresh sets for language precision (docs/decisions.md, "Rolling blind
 * sets: round D"): 165 household cases (31 multi-turn) and 83 scene questions written blind by
 * someone who had not read the agent or the query code nor the earlier rounds' sets, sealed while
 * the round's language work was done against round C's classes, and committed as written
 * (round-d-*.json, never edited). Its first run, round-d.first-run.txt, is the round's figure:
 * household correct 133 (80.6%), asked 14, missed 6, wrong 12; scenes correct 76 (91.6%), asked 3,
 * wrong 4. These gates hold that level until the set is tuned against; the target (0 wrong, ≥ 90%
 * correct on a first run) is not met on it.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';
import { gateScenes } from './scene-heldout.ts';

// household, after round D's general causes were fixed (docs/decisions.md, "Round D household: general causes"):
// correct 159 (96.4%), asked 5, missed 1, wrong 0 — from the first run's 133 / 14 / 6 / 12;
// after round F's follow-ups (docs/decisions.md, "Round F household: safeguards before acting"): 164 / 1 / 0 / 0
test('round D household set: correct ≥ 164, wrong 0', { timeout: 900_000 }, async () => {
  await gateHousehold('D', { size: 165, minCorrect: 164 });
});

// scenes tuned against since that first run (docs/decisions.md, "Scene questions: round D's causes"): 82/83, 1 asked, 0 wrong
test('round D scene questions: correct ≥ 82, wrong = 0 (tuned)', { timeout: 900_000 }, async () => {
  await gateScenes('D', { size: 83, minCorrect: 82 });
});
