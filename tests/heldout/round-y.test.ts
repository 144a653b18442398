/**
 * Practice round Y, household part: 130 requests (26 of them multi-turn) written blind by someone who had
 * not read the language or agent code, committed as written (round-y-household.json,
 * round-y-household-contexts.json, round-y-README.md; never edited). It was run once on main before the
 * pre-round-T fixes (round-y.first-run.txt: correct 107 (82.3%), asked 13, missed 3, wrong 7), and those
 * fixes then used it as material, so it is a regression set, no longer a measure.
 * After the pre-round-T fixes: 116 correct, 3 wrong (y009, y059, y112).
 * Round T arming fix (docs/decisions.md, "Round T: arming"): y076 (disarm but keep watching) now acts: 117 correct.
 * Round T stand-downs and scope (docs/decisions.md): y009 (was wrong) and y078 now correct.
 * All round-T fixes merged: 119 correct, 2 wrong (y059, y112).
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('practice round Y household set: correct ≥ 119, wrong ≤ 2', { timeout: 900_000 }, async () => {
  await gateHousehold('Y', { size: 130, minCorrect: 119, maxWrong: 2 });
});
