/**
 * Round I of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-i-household*.json, never edited). Its first run is the round's figure:
 * household correct 132/149 (88.6%), asked 9, missed 2, wrong 6 (round-i.first-run.txt). The set
 * is a regression set now, gated at the level reached after tuning against it (docs/decisions.md,
 * "Round I: words", "Round I: intent and safety", "Round I: the time grammar") and may only be tightened.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round I household set: correct ≥ 147, wrong 0 (tuned)', { timeout: 900_000 }, async () => {
  await gateHousehold('I', { size: 149, minCorrect: 147 });
});
