/**
 * Before round S, probe leaks (docs/decisions.md, "Before round S: probe leaks"): by class, a part of the message
 * nobody understood leaves the request undone and asks, and what someone else is doing, said beside a request, is
 * no request of its own. Each class with phrasings where the change must not fire. Phrasings are our own, not the
 * probe's or the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertActs, assertAsks, converse } from './lisbon-home.ts';
import { isPlaceModifier } from '../../src/platform/language/lexicon/modifiers.ts';

test('the lexicon tells a word describing a place from one nobody uses', () => {
  for (const word of ['big', 'old', 'new', 'upstairs', 'red', 'spare', 'detached', 'converted', 'refurbished', 'renovated', 'heated', 'bigger', 'bike'])
    assert.ok(isPlaceModifier(word), word);
  for (const word of ['snarfed', 'glorpy', 'flurbed', 'blenky', 'frobbled', 'splooshed', 'defenestrated', 'hornswoggled'])
    assert.ok(!isPlaceModifier(word), word);
});

test('a word no household uses between a determiner and a place is asked about', async () => {
  await assertAsks([
    'watch the snarfed garage tonight',
    'keep an eye on the flurbed driveway until 6am',
    'mute the splooshed nursery camera',
    'mute the hornswoggled living room camera',
    'watch the defenestrated kitchen until 7',
    'watch the frobbled backyard from 9pm for 2 hours',
  ]);
  // real words households use before a place keep acting
  await assertActs([
    ['watch the big garage tonight', ['create_watch']],
    ['watch the old garage tonight', ['create_watch']],
    ['keep an eye on the new driveway until 6am', ['create_watch']],
    ['watch the converted garage tonight', ['create_watch']],
    ['mute the little nursery camera', ['mute_sensor']],
    ['watch our lovely backyard tonight', ['create_watch']],
  ]);
});

test('a place left out that no reader resolved is asked about, never taken in', async () => {
  await assertAsks(['watch everything tonight except the glorpy nursery', 'watch the whole house tonight apart from the blenky kitchen and the garage']);
  await assertActs([
    ['watch everything tonight except the nursery', ['create_watch']],
    ['watch the whole house tonight apart from the big kitchen and the garage', ['create_watch']],
  ]);
});

test('what someone else is doing, said beside a request, is no request of its own', async () => {
  await assertActs([
    ['watch the driveway tomorrow 8 to 11, the courier is dropping off a parcel', ['create_watch']],
    ["watch the garage tonight, my brother's turning off the water", ['create_watch']],
    ['keep an eye on the backyard tonight, the pool guy is switching off the pump', ['create_watch']],
    ['watch the garage tonight, someone is stopping by with a parcel', ['create_watch']],
  ]);
  // the user's own request still acts, whoever else is named
  await assertActs([
    ['turn off the living room camera, the kids are watching telly', ['mute_sensor']],
    ['stop watching the driveway', []],
  ]);
});

test("the user's own request about the place a quote names acts with the user's verb, never the quote's", async () => {
  await assertActs([
    ['my daughter sent this: "can you mute the nursery camera tonight" - no. watch it tonight instead', ['create_watch']],
    ['my neighbour texted: "please stop watching the garage, it is fine" - ignore him, mute it', ['mute_sensor']],
  ]);
  // a quote naming two places gives "it" nothing to be; the quote alone is never acted on
  await assertAsks(['my son wrote: "watch the garage and the driveway tonight" - no, mute it']);
  await assertActs([['my son sent this: "mute the nursery camera now please"', []]]);
});

test('a change that looks for nothing, said with "when" and an event, or words left after what a stand-down keeps, is asked about', async () => {
  await assertAsks(['unmute the living room camera when the cleaner leaves', 'you can look in the nursery again when the baby wakes']);
  await assertAsks(
    ['stop all the watches but leave the driveway one running till the plumber comes', 'stop all the watches but keep the driveway one going 12'],
    'lisbon_watching',
  );
  // "let me know when …" still opens what a watch looks for; a keep with nothing left over stands the rest down
  const [watch] = await converse('lisbon', ['let me know when anyone is in the garage tonight']);
  assert.deepEqual(
    watch.changes.map((c) => c.tool),
    ['create_watch'],
    watch.reply,
  );
  const [kept] = await converse('lisbon_watching', ['stop all the watches but keep the driveway one going']);
  assert.ok(kept.changes.length > 0 && kept.changes.every((c) => c.tool === 'stand_down_watch'), kept.reply);
});
