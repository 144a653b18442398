/**
 * Round J of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-j-household*.json, never edited; round-j-README.md says who wrote them and what
 * they read). Its first run is the round's figure: household correct 122/150 (81.3%), asked 12,
 * missed 2, wrong 14 (round-j.first-run.txt). Nothing has been tuned against it yet: this gate holds
 * the first-run level as a regression floor, far from the target of 0 wrong, and may only be tightened.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round J household set: correct ≥ 122, wrong ≤ 14 (first run, untuned; target 0 wrong)', { timeout: 900_000 }, async () => {
  await gateHousehold('J', { size: 150, minCorrect: 122, maxWrong: 14 });
});
