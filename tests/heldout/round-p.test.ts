/**
 * Round P of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-p-household*.json, never edited; round-p-README.md says who wrote them and what
 * they read). Its first run is the round's figure: household correct 126/150 (84.0%), asked 18,
 * missed 3, wrong 3 (round-p.first-run.txt). Two of its wrong actions were fixed by their general
 * causes (docs/decisions.md, "Round P: household"), after which it scores 128/150 with 1 wrong
 * (p056, whose expectation the spec's own corpus contradicts); this gate holds that level and may
 * only be tightened. A tuned set no longer measures precision blind: the first-run figure is the round's.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round P household set: correct ≥ 127, wrong ≤ 2 (p127 fixed)', { timeout: 900_000 }, async () => {
  await gateHousehold('P', { size: 150, minCorrect: 127, maxWrong: 2 });
});
