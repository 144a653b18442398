import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { MIN, NOW, answer, ask, makeDetection, ny, refused } from './scene-fixtures.ts';
import { answerCameraStatus } from '../../src/org/scenes/query/query.ts';

// Before round L (docs/decisions.md, "Before round L: scene questions"): the classes still asked
// after round K, each in several phrasings of our own, with phrasings where the change must not fire.

const YARD = { location: 'backyard' };
const SCHOOL = { location: 'school_gate' };
const animal = (time: string, subtype: 'cat' | 'dog', track: string, dwell = 0): DetectionRecord =>
  makeDetection('animal', ny(time), { location: 'backyard', subtype, track_id: track, dwell_s: dwell });
const people = (time: string, value: number): DetectionRecord => makeDetection('person_count', ny(time), { location: 'backyard', value });
const cars = (time: string, count: number): DetectionRecord => makeDetection('vehicle', ny(time), { location: 'school_gate', count });

test('animals now, in several words: the latest reading and the latest sighting', () => {
  for (const q of [
    'any dogs in the yard right now?',
    'is there a dog here now?',
    'is the dog still out there?',
    'is a dog currently in the yard?',
    'any dogs about at the moment?',
  ]) {
    const i = ask(q, YARD);
    assert.equal(i.metric, 'animals', q);
    assert.equal(i.aggregate, 'current', q);
    assert.equal(i.subtype, 'dog', q);
  }
  const dogNow = [people('10:00', 1), animal('10:13', 'dog', 'd1', 120)];
  for (const q of ['any dogs in the yard right now?', 'is there a dog here now?', 'is the dog still out there?']) {
    assert.match(answer(q, dogNow, YARD), /^Yes, a dog is in the cameras' latest reading of the backyard, at 10:13/, q);
  }
  const dogEarlier = [animal('07:40', 'dog', 'd1'), people('10:13', 1)];
  for (const q of ['any dogs in the yard right now?', 'is there a dog here now?']) {
    assert.match(answer(q, dogEarlier, YARD), /^No dog has been seen in the backyard since 07:40 .*the cameras' latest reading is from 10:13/, q);
  }
  // how many: a number, the tracks in the latest reading
  const two = [animal('10:13', 'cat', 'c1'), animal('10:13', 'dog', 'd1')];
  assert.match(answer('how many animals are here now', two, YARD), /^2 animals \(1 cat, 1 dog\) are in the cameras' latest reading/);
  assert.match(
    answer('how many animals are here now', [people('10:13', 0)], YARD),
    /^There are 0 animals in the cameras' latest reading of the backyard, and none was seen in the last day/,
  );
  // never "yes" from a sighting that is not in the latest reading
  assert.doesNotMatch(answer('is there a cat here now?', [animal('10:05', 'cat', 'c1'), people('10:13', 0)], YARD), /^Yes/);
});

test('animals over a span or in the past tense are read as before', () => {
  assert.equal(ask('any dogs in the yard today?', YARD).aggregate, 'presence');
  assert.equal(ask('was the dog in the yard?', YARD).aggregate, 'presence');
  assert.equal(ask('how many dogs were in the yard since 8am?', YARD).aggregate, 'arrivals');
  assert.equal(ask('was it just the cat?', YARD).aggregate, 'only');
  assert.equal(ask('when was the cat last seen?', YARD).aggregate, 'presence');
});

test("an animal's stay going on: the tracker's figure with its start, or the first and last sighting said as such", () => {
  for (const q of ['how long has the cat been hanging around?', 'how long has the cat been in the yard?', 'how long has the cat been out there?']) {
    const i = ask(q, YARD);
    assert.equal(i.aggregate, 'dwell', q);
    assert.equal(i.subtype, 'cat', q);
  }
  const tracked = [people('09:50', 0), animal('09:58', 'cat', 'c1', 0), animal('10:13', 'cat', 'c1', 900)];
  assert.match(
    answer('how long has the cat been hanging around?', tracked, YARD),
    /^The cat seen at 10:13 \(1 minute ago\) had been tracked for 15 minutes, since 09:58\.$/,
  );
  // the stay ended before the latest reading: said, and not said to go on
  const gone = [animal('08:00', 'cat', 'c1', 0), animal('08:20', 'cat', 'c1', 1200), people('10:13', 0)];
  assert.match(answer('how long has the cat been hanging around?', gone, YARD), /tracked for 20 minutes, since 08:00; nothing says whether it is still there/);
  // untracked sightings: first and last, never a stay
  const untracked = [
    makeDetection('animal', ny('09:00'), { location: 'backyard', subtype: 'cat' }),
    makeDetection('animal', ny('10:13'), { location: 'backyard', subtype: 'cat' }),
  ];
  assert.match(
    answer('how long has the cat been hanging around?', untracked, YARD),
    /first seen .* at 09:00 and last at 10:13; the sightings do not say it stayed in between/,
  );
  assert.match(answer('how long has the cat been hanging around?', [people('10:13', 0)], YARD), /^No cat has been seen/);
  // past stays are still asked back
  assert.match(refused('how long did the dog stay?', YARD), /For cats and dogs I can tell/);
  assert.ok(MIN > 0);
});

test('a time of day named by an activity is asked about, never read as a fall or given invented hours', () => {
  for (const q of [
    'peak count at drop-off?',
    'how busy was it at pick-up?',
    'how many cars at the morning drop off?',
    'how many people since opening?',
    'how many people at closing time',
    'was it busy during pickup?',
  ]) {
    assert.match(refused(q, SCHOOL), /time of day named by what happens then|not "pick/, q);
  }
  // the noun with no preposition ("when did the morning drop-off peak?") reads as before (round E answers it)
  // with its own clock time, the count at that time
  for (const q of ["how many cars were dropping off at 8 o'clock", 'how many cars at drop-off at 8am']) {
    const i = ask(q, SCHOOL);
    assert.equal(i.metric, 'vehicles', q);
    assert.equal(i.aggregate, 'current', q);
    assert.equal(i.to, ny('08:00'), q);
  }
  assert.match(answer("how many cars were dropping off at 8 o'clock", [cars('07:30', 0), cars('07:58', 6), cars('08:08', 9)], SCHOOL), /\b6 vehicles\b/);
  // a fall of the count is still a fall
  assert.equal(ask('did the numbers drop since 9?', SCHOOL).aggregate, 'trend');
  assert.equal(ask('is it getting quieter?', SCHOOL).aggregate, 'trend');
});

test("the camera's own status: named, each of several, and a camera the scene does not have asked about", () => {
  const park = { location: 'car_park' };
  for (const q of [
    'when did the car park camera last send a picture?',
    'when was the last frame from the camera?',
    'is the camera working?',
    'is the car park camera online?',
    'is the camera down?',
  ]) {
    assert.equal(ask(q, park).metric, 'camera', q);
  }
  // the scene through the camera is still a scene question
  for (const q of ['any people on camera now?', 'how many cars on the car park camera?', 'when was the last car seen?', 'is anyone up?']) {
    assert.notEqual(ask(q, park).metric, 'camera', q);
  }
  const offline = { name: 'north', location: 'car_park', status: 'offline', last_frame_at: new Date(ny('09:42')).toISOString() };
  const live = { name: 'south', location: 'car_park', status: 'live', last_frame_at: new Date(ny('10:14')).toISOString() };
  const told = (q: string, streams: (typeof live)[]) => answerCameraStatus(ask(q, park), streams, NOW);
  assert.deepEqual(told('when did the car park camera last send a picture?', [offline]), {
    answer: 'The camera "north" is offline; its last frame came at 09:42 (32 minutes ago).',
  });
  assert.match((told('is the camera working?', [offline]) as { answer: string }).answer, /^No, the camera "north" is offline/);
  assert.match((told('is the camera down?', [offline]) as { answer: string }).answer, /^Yes, the camera "north" is offline/);
  assert.match(
    (told('is the car park camera online?', [live]) as { answer: string }).answer,
    /^Yes, the camera "south" is live; its last frame came at 10:14 \(just now\)/,
  );
  assert.match(
    (told('are the cameras working?', [offline, live]) as { answer: string }).answer,
    /^Partly, the camera "north" is offline; .*; the camera "south" is live/,
  );
  assert.match((told('is the south camera working?', [offline, live]) as { answer: string }).answer, /^Yes, the camera "south" is live/);
  assert.match(
    (told('is the gate cam working?', [offline, live]) as { ask: string }).ask,
    /I don't know a "gate" camera at the car park; its cameras are "north" \(offline\), "south" \(live\)/,
  );
});
