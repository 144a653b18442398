/**
 * Practice round Y, scene part: 42 scene questions written blind by someone who had not read the query
 * code, committed as written (round-y-scene.json, never edited). Its first run on main, before the
 * pre-round-T scene fixes used it as material: correct 40 (95.2%), asked 1, missed 0, wrong 1
 * (round-y.first-run.txt). After those fixes (docs/decisions.md, "Before round T: scene questions"): 42.
 */
import { test } from 'node:test';
import { gateScenes } from './scene-heldout.ts';

test('practice round Y scene questions: correct 42, wrong 0', { timeout: 900_000 }, async () => {
  await gateScenes('Y', { size: 42, minCorrect: 42, maxWrong: 0 });
});
