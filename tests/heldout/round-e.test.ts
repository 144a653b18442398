/**
 * Round E of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-e-household*.json, never edited). Its first run is the round's figure:
 * household correct 126/150 (84.0%), asked 11, missed 1, wrong 12. The set is a regression set now.
 * The target (0 wrong) is not met on it yet: this gate holds the level reached after round E's first
 * general causes were fixed (chat-template markup, named lists over vague groups, weekly days,
 * "ten to nine" in a between-range, a corrected lone time, "the same on friday") and may only be tightened.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

// household after the first fixes: correct 134 (89.3%), asked 11, missed 1, wrong 4 — from 126 / 11 / 1 / 12;
// after round F's safeguards before acting (docs/decisions.md, "Round F household: safeguards before acting"):
// correct 137 (91.3%), asked 11, missed 1, wrong 1
// round F work (relative days and starts, references by place): correct 138 (92.0%), asked 10, missed 1, wrong 1
test('round E household set: correct ≥ 138, wrong ≤ 1 (target 0)', { timeout: 900_000 }, async () => {
  await gateHousehold('E', { size: 150, minCorrect: 138, maxWrong: 1 });
});
