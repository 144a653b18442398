/**
 * Practice round X, household part: 127 requests (25 of them multi-turn) written blind by someone who had
 * not read the language or agent code, committed as written (round-x-household.json,
 * round-x-household-contexts.json, round-x-README.md; never edited). It was run once on main before the
 * pre-round-S fixes (round-x.first-run.txt: correct 108 (85.0%), asked 15, missed 2, wrong 2), and those
 * fixes then used it as material, so it is a regression set, no longer a measure.
 * After the pre-round-S fixes: 115 correct, 0 wrong; after the round-S fixes: 118.
 * Round S: reasons (docs/decisions.md): 117 correct, 0 wrong (x010, x072).
 * Before round T (docs/decisions.md, "Before round T: words"): 119 (x088's "closing up … arm everything").
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('practice round X household set: correct ≥ 119, wrong 0', { timeout: 900_000 }, async () => {
  await gateHousehold('X', { size: 127, minCorrect: 119, maxWrong: 0 });
});
