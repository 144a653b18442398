/**
 * Round K of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-k-household*.json, never edited; round-k-README.md says who wrote them and what
 * they read). Its first run is the round's figure: household correct 148/159 (93.1%), asked 6,
 * missed 0, wrong 5 (round-k.first-run.txt; one of the five, k052, was one watch of two places where
 * the writer expected one per place, which the scorer now judges alike). It is now tuned: its
 * failures were fixed by their general causes (docs/decisions.md, "Round K household"), after which
 * it scores 157/159 with 0 wrong; this gate holds that level and may only be tightened. A tuned set
 * no longer measures precision blind: the first-run figure above is the round's.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round K household set: correct ≥ 157, wrong 0 (tuned)', { timeout: 900_000 }, async () => {
  await gateHousehold('K', { size: 159, minCorrect: 157, maxWrong: 0 });
});
