/**
 * Round F of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-f-household*.json, never edited). Its first run is the round's figure:
 * household correct 142/169 (84.0%), asked 15, missed 1, wrong 11 (round-f.first-run.txt). The set
 * is a regression set now. The target (0 wrong) is not met on its first run: this gate holds the
 * level reached after tuning against it (157 correct, 0 wrong: docs/decisions.md, "Round F household:
 * relative days and starts") and may only be tightened.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round F household set: correct ≥ 157, wrong 0 (tuned)', { timeout: 900_000 }, async () => {
  await gateHousehold('F', { size: 169, minCorrect: 157 });
});
