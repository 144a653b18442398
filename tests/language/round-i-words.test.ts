/**
 * Words (docs/decisions.md, "Round I: words"): a short real word is never corrected into a name
 * word, a slip no dictionary knows still is; a name whose head is only a category word ("pool
 * area", "games room") is read by its modifier, so a room-like word is no candidate for it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNormalizer } from '../../src/platform/language/normalize.ts';
import { scorePlaceMeaning } from '../../src/platform/language/lexicon/places.ts';
import { listCorrectableWords } from '../../src/home/agent/vocabulary.ts';

const normalize = createNormalizer(listCorrectableWords());
const NAMES = ['bar', 'back', 'gate', 'garage', 'camera', 'door', 'contact', 'shed', 'pool', 'area', 'lounge', 'room'];
const words = (message: string) => normalize(message, NAMES).tokens.map((t) => t.text);

test('a short real word is what it says, never a name word one letter away', () => {
  for (const [message, word] of [
    ['mute the bat camera', 'bat'],
    ['watch the gat contact', 'gat'],
    ['the cat is out', 'cat'],
  ]) {
    assert.ok(words(message).includes(word), `${message}: ${words(message).join(' ')}`);
  }
});

test('a short slip no dictionary knows is still corrected when one word fits', () => {
  assert.ok(words('watch the shde door').includes('shed'));
  assert.ok(words('mute the garage camra').includes('camera'));
});

test('a name with a category word for its head is read by its modifier, never by the category', () => {
  assert.equal(scorePlaceMeaning('lounge', 'pool area'), 0);
  assert.equal(scorePlaceMeaning('lounge', 'games room'), 0);
  assert.ok(scorePlaceMeaning('lounge', 'lounge room') >= 0.75);
  assert.ok(scorePlaceMeaning('pool', 'pool area') >= 0.75);
  // a head that names a kind of place is still what the name is read by
  assert.ok(scorePlaceMeaning('deck', 'back deck') >= 0.75);
});
