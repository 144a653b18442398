/**
 * Practice round X, scene part: 44 scene questions written blind by someone who had not read the query
 * code, committed as written (round-x-scene.json, never edited). Its first run on main, before the
 * pre-round-S scene fixes used it as material: correct 38 (86.4%), asked 6, missed 0, wrong 0
 * (round-x.first-run.txt). After those fixes (docs/decisions.md, "Before round S: scene questions"): 44.
 */
import { test } from 'node:test';
import { gateScenes } from './scene-heldout.ts';

test('practice round X scene questions: correct 44, wrong 0', { timeout: 900_000 }, async () => {
  await gateScenes('X', { size: 44, minCorrect: 44, maxWrong: 0 });
});
