/**
 * Before round T, words (docs/decisions.md, "Before round T: words"): a fixed phrase joined by "or" inside a reason or
 * aside ("trick or treating", "sooner or later", "rain or shine") is one phrase, not a second request nor a choice; the
 * house shut for a time ("closing up for the weekend", "locking up") is a reason beside arming, and "the lot" is the whole
 * house as "everything" is. The phrasings beside them that must keep their old reading are checked too. Phrasings are our
 * own, not the sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { converse, expectAsked, expectChanges, home } from './lisbon-home.ts';

const watch = (sensor_ids: string[]) => ({ tool: 'create_watch', args: { sensor_ids } });
const arm = { tool: 'arm_house', args: { arm: true } };

test('a fixed phrase with "or" in a reason or aside is one phrase, not a second request', async () => {
  await expectChanges('watch the driveway tonight, the kids are out trick or treating', [watch(['sen_driveway_cam'])]);
  await expectChanges("watch the backyard tonight, we'll be back sooner or later", [watch(['sen_backyard_cam'])]);
  await expectChanges('keep an eye on the driveway tonight rain or shine', [watch(['sen_driveway_cam'])]);
  await expectChanges('one way or another we are out tonight, watch the backyard tonight', [watch(['sen_backyard_cam'])]);
  // must not fire: a choice of times, or a second request joined by "or", is still asked
  await expectAsked('watch the driveway tonight or tomorrow');
  await expectAsked('watch the driveway tonight or text my brother');
});

test('the house shut for a time is a reason beside arming, and "the lot" is the whole house', async () => {
  await expectChanges('Shutting up for the weekend. Arm it all please.', [arm]);
  await expectChanges('locking up now, arm the lot', [arm]);
  await expectChanges('arm the whole lot, closing up for the night', [arm]);
  // must not fire: shutting up while asking to disarm says two things; a part of the house is not the whole
  await expectAsked('closing up for the weekend, disarm');
  await expectAsked('arm the parking lot');
});

test('where someone is in the home is no city the home is in', async () => {
  await expectChanges("watch the driveway tonight, we're in the garage", [watch(['sen_driveway_cam'])]);
  await expectChanges('keep an eye on the backyard tonight. I am in the kitchen', [watch(['sen_backyard_cam'])]);
  // said with no comma after a mute it names a place that could be muted too: asked, never muted nor refused as a city
  await expectAsked("mute the living room camera we're in the nursery", /names a place of your home/);
  // must not fire: a city is still a city, and another person's whereabouts is no place of the home
  await expectChanges("we're in Leeds now", [{ tool: 'set_household', args: { city: 'Leeds' } }]);
  await expectChanges("mute the living room camera, she's in Leeds", [{ tool: 'mute_sensor', args: { sensor_id: 'sen_living_cam' } }]);
});

test('a slip of a command verb that reads as two words run together is still a slip', async () => {
  const [turn] = await converse(home, ['disram the hosue']);
  assert.equal(turn.changes.length, 0, turn.reply);
  assert.match(turn.reply, /I read "disram" as "disarm"/);
  await expectAsked('disram the garage', /disarm only the whole house/);
  // must not fire: a real word is never rewritten into a verb ("arms", "ram")
  await expectAsked('watch the arms tonight');
});

test('a word written with no vowels is the one vocabulary word with its consonants', async () => {
  await expectChanges('watch the garage tnght', [watch(['sen_garage_motion'])]);
  await expectChanges('mute the nrsry camera', [{ tool: 'mute_sensor', args: { sensor_id: 'sen_nursery_cam' } }]);
  // must not fire: a vowelless word that fits no word of the home or the vocabulary is still not read
  await expectAsked('watch the garage tonight and the zxcv');
});
