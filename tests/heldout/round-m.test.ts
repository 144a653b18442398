/**
 * Round M of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-m-household*.json, never edited; round-m-README.md says who wrote them and what
 * they read). Its first run is the round's figure: household correct 132/152 (86.8%), asked 11,
 * missed 0, wrong 9 (round-m.first-run.txt). This gate holds the first-run level and may only be
 * tightened once its failures are fixed by their general causes.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round M household set: correct ≥ 132, wrong ≤ 9 (first run)', { timeout: 900_000 }, async () => {
  await gateHousehold('M', { size: 152, minCorrect: 132, maxWrong: 9 });
});
