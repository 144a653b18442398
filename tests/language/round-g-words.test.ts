/**
 * Words (docs/decisions.md, "Round G: words"): what the normaliser corrects and says it corrected,
 * what it leaves alone, the language guard on English with several slips, and places run together.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNormalizer } from '../../src/platform/language/normalize.ts';
import { isPlaceWord } from '../../src/platform/language/lexicon/places.ts';
import { classifyWord } from '../../src/platform/language/coverage.ts';
import { detectForeignLanguage } from '../../src/home/agent/language-guard.ts';
import { listCorrectableWords } from '../../src/home/agent/vocabulary.ts';

const normalize = createNormalizer(listCorrectableWords());
const NAMES = ['shed', 'garage', 'driveway', 'garden', 'hallway', 'camera', 'motion', 'sensor', 'front', 'door', 'contact'];
const read = (message: string) => normalize(message, NAMES);
const words = (message: string) => read(message).tokens.map((t) => t.text);

test('typos are corrected and listed; shorthand from the table is not listed', () => {
  const r = read('whatch the drievway tonite');
  assert.deepEqual(words('whatch the drievway tonite'), ['watch', 'the', 'driveway', 'tonight']);
  assert.deepEqual(r.corrections, [
    { from: 'whatch', to: 'watch' },
    { from: 'drievway', to: 'driveway' },
  ]);
  assert.equal(read('watch the driveway tonight').corrections, undefined);
});

test('a slip that looks like a name plus "d" is still a slip; real inflections stay', () => {
  assert.ok(words('stand down the shead watch').includes('shed'));
  for (const w of ['closed', 'used', 'opened', 'moved']) assert.ok(words(`the door ${w}`).includes(w), w);
});

test('real English words near a name are never corrected', () => {
  for (const w of ['motor', 'motorbike', 'emotion', 'garden', 'shelf', 'shade', 'drive']) {
    assert.ok(words(`the ${w} is there`).includes(w), w);
  }
  assert.equal(read('the motor is on the drive').corrections, undefined);
});

test('English with a slip in nearly every word is English, not another language', () => {
  const places = ['shed', 'garage', 'driveway', 'garden', 'hallway'];
  for (const m of ['wacth the drievway tonite', 'stnad down the shead watch', 'mointor the garaeg tonihgt']) {
    assert.equal(detectForeignLanguage(m, places), undefined, m);
  }
  for (const m of ['vigila el garaje esta noche por favor', 'bitte überwache heute nacht die garage']) {
    assert.notEqual(detectForeignLanguage(m, places), undefined, m);
  }
});

test('a place run together that WordNet lacks is a place; other run-together words are not', () => {
  for (const w of ['poolhouse', 'treehouse', 'bikeshed']) {
    assert.equal(isPlaceWord(w), true, w);
    assert.equal(classifyWord(w, 'the', false), 'place', w);
  }
  for (const w of ['household', 'keyboard', 'overnight', 'whatever', 'somewhere', 'weekend', 'bedtime']) assert.equal(isPlaceWord(w), false, w);
});
