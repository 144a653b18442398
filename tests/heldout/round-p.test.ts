/**
 * Round P of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-p-household*.json, never edited; round-p-README.md says who wrote them and what
 * they read). Its first run is the round's figure: household correct 126/150 (84.0%), asked 18,
 * missed 3, wrong 3 (round-p.first-run.txt). One of its wrong actions (p127) was fixed by its general
 * cause (docs/decisions.md, "Round P: household"), after which it scores 127/150 with 2 wrong: p065 (a
 * place matched by meaning; the fix for it broke a measured example and was taken back) and p056 (whose
 * expectation the spec's own corpus contradicts). Before round Q, the times people plainly say (days with clock
 * ranges, repeating windows, stretching follow-ups, stays away, stance reasons: docs/decisions.md, "Before round Q:
 * times") and arming, standing down and questions said other ways ("Before round Q: words") raised it to 146/150,
 * the same 2 wrong; a start with no end asked until when (docs/decisions.md, "Round R: times") made p056 right: 147, 1 wrong
 * (p065). This gate holds that level and may only be tightened.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round P household set: correct ≥ 147, wrong ≤ 1', { timeout: 900_000 }, async () => {
  await gateHousehold('P', { size: 150, minCorrect: 148, maxWrong: 1 });
});
