/**
 * Round S, reasons and asides beside a request (docs/decisions.md, "Round S: reasons"): a greeting as the opening or
 * closing words, a reason after "while" once the window is whole, a reason said first and joined by "so", a reason with
 * no comma after a mute, a trade's regional name ("the sparky") as a reason's subject, and a reason told in the past
 * beside a request with no verb ("thought I heard something last night") are no part of the request. The phrasings
 * beside them that must keep their old reading are checked too. Phrasings are our own, not the set's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { converse, expectAsked, expectChanges, home } from './lisbon-home.ts';

const watch = (sensor_ids: string[]) => ({ tool: 'create_watch', args: { sensor_ids } });

test('a greeting as the opening or closing words is politeness, not a time', async () => {
  await expectChanges('Good morning. Please watch the driveway from 8pm until 11pm tonight.', [watch(['sen_driveway_cam'])]);
  await expectChanges('hi, good evening, could you watch the garage from 9 pm to 11 pm', [watch(['sen_garage_motion'])]);
  await expectChanges('watch the backyard from 9 pm to 11 pm tonight, good night', [watch(['sen_backyard_cam'])]);
  // must not fire: the greeting alone changes nothing, and a request with no time of its own is still asked when
  await expectAsked('good evening');
  await expectAsked('Good evening. Watch the driveway.', /When should I watch/);
});

test('a reason after "while" once the window is whole is no part of the request', async () => {
  await expectChanges('keep an eye on the backyard from 7pm till 10pm while I am at the gym', [watch(['sen_backyard_cam'])]);
  await expectChanges("watch the driveway from 6 pm to 11 pm while we're all out", [watch(['sen_driveway_cam'])]);
  // must not fire: with no window the "while" clause is the window asked about; a place of the home in it is read
  await expectAsked('watch the driveway while we are away');
  await expectAsked('watch the driveway from 6 pm to 11 pm while we are in the nursery');
});

test('a reason said first and joined by "so" is no part of the request', async () => {
  await expectChanges('right so we are away this weekend so can you watch the garage from 8pm to 11pm tonight', [watch(['sen_garage_motion'])]);
  await expectChanges('my wife works late so please watch the driveway from 6pm till 10pm', [watch(['sen_driveway_cam'])]);
  // must not fire: a reason whose time could be the request's, beside a request with none, is asked as before
  await expectAsked('we are away this week so can you watch the garage');
  // (nor is "we're off to Faro tomorrow so watch the driveway until Sunday night", whose start is the reason's: round-l-prep.test.ts)
});

test('a reason with no comma after a mute ("we\'re having a barbecue") is no part of the request', async () => {
  await expectChanges("mute the backyard camera we're having a barbecue", [{ tool: 'mute_sensor', args: { sensor_id: 'sen_backyard_cam' } }]);
  await expectChanges('mute the driveway camera i am washing the car', [{ tool: 'mute_sensor', args: { sensor_id: 'sen_driveway_cam' } }]);
  // must not fire: beside a watch the time is still asked for
  await expectAsked("watch the driveway we're having a party", /When should I watch/);
  // such a reason that names a place of the home is asked about: its place was muted too before
  await expectAsked('mute the backyard camera we are watching the driveway', /"we are watching the driveway"/);
  await expectAsked("stop watching the garage we're parking in the driveway", /I haven't changed anything/);
});

test('a trade by its regional name ("the sparky") is a reason\'s subject', async () => {
  await expectChanges('watch the garage tomorrow from 9 am to 12 pm, the sparky is doing the wiring', [watch(['sen_garage_motion'])]);
  await expectChanges('watch the driveway tomorrow from 8 am to 4 pm, the chippy is fixing the fence', [watch(['sen_driveway_cam'])]);
  // must not fire: said bare with a place of the home after it, the place is read with the request, as "cleaner is in …" is
  const [turn] = await converse(home, ['watch the driveway tonight, sparky is in the nursery']);
  assert.match(turn.reply, /nursery/);
});

test("a reason told in the past beside a request with no verb keeps the request's own time", async () => {
  await expectChanges('the driveway between 8 and 10 tonight please, thought I saw someone out there last night', [watch(['sen_driveway_cam'])]);
  await expectChanges('the garage from 9pm to 11pm, reckon I heard a fox last night', [watch(['sen_garage_motion'])]);
  // must not fire: a room of the home named in the past reason is asked about
  await expectAsked('the driveway from 9pm to 11pm, thought I heard someone in the nursery last night', /nursery/);
});
