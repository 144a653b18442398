/**
 * The second, independent set of face cases, written blind by a session that read no
 * Vigil code: 30 scene questions (faces-blind-scene.json) and 20 household requests
 * (faces-blind-household.json), committed as written and never edited.
 *
 * First run, before any tuning: scenes 26 correct, 3 asked, 1 wrong; household 9 correct, 2 asked,
 * 3 missed, 6 wrong. Final (this gate's commit): scenes 30 correct, 0 asked, 0 wrong; household 20
 * correct, 0 asked, 0 missed, 0 wrong.
 *
 * The harness now turns face_recognition on for the tenant (PATCH /v1/automation), as a user asking
 * about known people would have; before, every scene answer also said recognition was off.
 * "Who was that at HH:MM?" when the person there never showed a face is refused (422 face_not_seen,
 * saying plainly that nobody can say who it was), which the judge counts as asking, as the writers
 * expected (docs/decisions.md).
 *
 * Gate: wrong = 0 on both sets (a watch on the wrong person or place, or a made-up identity, is the
 * failure that matters), and ≥ 90% correct.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { formatSummary, loadHeldoutContexts, summarise } from './household-heldout.ts';
import { scoreBlindHousehold, scoreBlindScenes } from './faces-blind.ts';

test('blind face household requests: wrong = 0, correct ≥ 90%', () => {
  const contexts = loadHeldoutContexts(join(import.meta.dirname, 'household-contexts.json'));
  const results = scoreBlindHousehold(join(import.meta.dirname, 'faces-blind-household.json'), contexts);
  assert.equal(results.length, 20);
  console.log(formatSummary('blind face household', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong`);
  assert.ok(total.correct / results.length >= 0.9, `correct ${total.correct}/${results.length}`);
});

test('blind face scene questions: wrong = 0, correct ≥ 90%', async () => {
  const results = await scoreBlindScenes(join(import.meta.dirname, 'faces-blind-scene.json'));
  assert.equal(results.length, 30);
  console.log(formatSummary('blind face scene', results));
  const { total } = summarise(results);
  assert.equal(total.wrong, 0, `${total.wrong} wrong`);
  assert.ok(total.correct / results.length >= 0.9, `correct ${total.correct}/${results.length}`);
});
