/**
 * Round R of the rolling fresh sets for language precision, household part: 160 requests (28 of them
 * multi-turn) written blind by someone who had not read the language or agent code, committed as written
 * (round-r-household.json, round-r-household-contexts.json, round-r-README.md; never edited). Its first
 * run is the round's figure: correct 136 (85.0%), asked 19, missed 0, wrong 5 (round-r.first-run.txt).
 * This gate holds the first-run level and may only be tightened.
 * rf-place: "the garden camera, mute it" mutes the place named before "it" (r057), "tonight" where the sun does not set asks (r145): correct 138, wrong 3;
 * "unmute bedroom cam" unmutes the one bedroom camera that is muted (r080): correct 139.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round R household set: correct ≥ 139, wrong ≤ 3', { timeout: 900_000 }, async () => {
  await gateHousehold('R', { size: 160, minCorrect: 139, maxWrong: 3 });
});
