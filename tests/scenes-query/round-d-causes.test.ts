import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN, NOW, answer, ask, makeDetection, ny, refused } from './scene-fixtures.ts';

/**
 * The general causes behind round D's wrong and refused scene answers (docs/decisions.md, "Scene
 * questions: round D's causes"), each tested on questions other than the set's own.
 */

const det = makeDetection;

test('a description of someone is not in the data: "look like", "wearing" are asked about, never answered with a count', () => {
  for (const q of [
    'what did the intruder look like?',
    'what was the guy at 9am wearing',
    'can you describe the stranger',
    'what did the person in the lobby look like',
    'how tall was the intruder',
  ]) {
    assert.match(refused(q), /keep no description/, q);
  }
});

test('devices are not sightings: "did the alarm go off?" is asked about, while "alarming" is still unusual activity', () => {
  assert.match(refused('did the alarm go off?'), /no record of "alarm"/);
  assert.match(refused('were the alarms triggered last night'), /"alarm"|"triggered"/);
  assert.match(refused('did a sensor go off in the lobby'), /"sensor"/);
  assert.equal(ask('anything alarming in the last hour?').metric, 'anomalies');
});

test('"how long did the intruder stay?": the latest stay of the last day, not "none" in a request window that began after it', () => {
  const interp = ask('how long did the intruder stay?');
  assert.equal(interp.aggregate, 'dwell');
  assert.equal(interp.latest, true);
  assert.equal(interp.subtype, 'unrecognized');
  assert.equal(interp.to - interp.from, 24 * 60 * MIN);
  // one unrecognized person, 07:40 to 08:00, two hours before now; a recognized one after
  const history = [
    det('person_count', ny('07:30'), { value: 0 }),
    det('person', ny('08:00'), { track_id: 'x', dwell_s: 1200, subtype: 'unrecognized' }),
    det('person_count', ny('08:05'), { value: 0 }),
    det('person', ny('09:00'), { track_id: 'y', dwell_s: 300 }),
  ];
  assert.equal(
    answer('how long did the intruder stay?', history),
    'The last unrecognized person tracked in the lobby in the last day stayed 20 minutes (from 07:40 to 08:00).',
  );
  // "he", "that guy", "the car": one named as known; the last of any person here is the recognized one
  assert.match(
    answer('how long did that guy stay', history),
    /^The last person tracked in the lobby in the last day stayed 5 minutes \(from 08:55 to 09:00\)\.$/,
  );
  assert.equal(ask('how long was that car here', { location: 'parking_lot' }).latest, true);
  assert.match(answer('how long did the last person stay?', history), /^The last person tracked in the lobby in the last day stayed 5 minutes/);
  // plural, a time named, or a stay going on: as before
  assert.notEqual(ask('how long did people stay').latest, true);
  assert.equal(ask('how long did people stay').to - ask('how long did people stay').from, 15 * MIN);
  assert.notEqual(ask('how long did the intruder stay this morning').latest, true);
  assert.notEqual(ask('how long has that guy been here').latest, true);
  assert.notEqual(ask('what was the longest the intruder stayed').latest, true);
  // nobody tracked in the last day: said over that day, never a made-up stay
  assert.match(
    answer('how long did the intruder stay?', [det('person_count', ny('09:00'), { value: 0 })]),
    /^No tracked unrecognized people in the lobby in the last day/,
  );
});

test('a count with nothing named is of people except where cars park: "peak this morning" at a dock, "compare" there', () => {
  assert.equal(ask('peak this morning', { location: 'marina_dock' }).metric, 'people');
  assert.equal(ask('peak this morning', { location: 'loading_dock' }).metric, 'people');
  assert.match(refused('peak this morning', { location: 'parking_lot' }), /people or of vehicles/);
  assert.equal(ask('compare this morning with yesterday morning', { location: 'loading_dock' }).metric, 'people');
  assert.equal(ask('compare this morning with yesterday morning', { location: 'parking_lot' }).metric, 'activity');
  // the same as a plain count there (chooseMetric), and a named subject still decides
  assert.equal(ask('how many were there at 9am', { location: 'loading_dock' }).metric, 'people');
  assert.equal(ask('compare cars this morning with yesterday morning', { location: 'loading_dock' }).metric, 'vehicles');
});

test('"how does it compare with yesterday at the same time?": now against the same clock time a day before', () => {
  const interp = ask('how does it compare with yesterday at the same time?');
  assert.equal(interp.aggregate, 'compare');
  assert.equal(interp.from, NOW);
  assert.equal(interp.compare_with?.from, ny('10:14', '2026-03-09'));
  assert.equal(ask('how does it compare with yesterday around this time').compare_with?.from, ny('10:14', '2026-03-09'));
  // in the past tense the first time is not said (query-compare.ts): asked, not guessed
  refused('how did it compare with yesterday at the same time');
});

test('a real English noun is never "corrected" into a vocabulary word: "carts" is not "cars"', () => {
  assert.match(refused('how many carts are in the parking lot', { location: 'parking_lot' }), /"carts"/);
  // a typo that is no word is still corrected
  assert.equal(ask('how many vehicels are in the parking lot', { location: 'parking_lot' }).metric, 'vehicles');
  assert.equal(ask('how many poeple are here').metric, 'people');
});

test('what someone did, how, which one, or whether a person fell: asked back, never answered with a count of the nouns', () => {
  const cases: Array<[string, RegExp]> = [
    ['what was the intruder doing?', /not what they did/],
    ['what did the dog do in the lobby', /not what they did/],
    ['what happened to the guy at 9am', /not what they did/],
    ['how did the intruder get in?', /not how something happened/],
    ['how did the stranger get in last night', /not how something happened/],
    ['was it a man or a woman?', /cannot tell men from women/],
    ['any females in the lobby today', /"females"/],
    ['what kind of car was it', /no description/],
    ['what colour was the van', /no description/],
    ['what car did he drive?', /do not tell one from another \("what car"\)/],
    ['what person came in first', /do not tell one from another/],
    ['did anyone fall?', /what a person did/],
    ['how long has the intruder been gone?', /how long ago someone left/],
  ];
  for (const [q, reason] of cases) assert.match(refused(q), reason, q);
  // the same words in questions the data answers
  assert.equal(ask('what time was the last car seen').aggregate, 'last_seen');
  assert.equal(ask('how did this morning compare with yesterday morning').aggregate, 'compare');
  assert.equal(ask('what is the people count now').aggregate, 'current');
  assert.equal(ask('has the crowd been falling since 9am').aggregate, 'trend');
  assert.equal(ask('what happened this morning').aggregate, 'summary');
});

test('"this time yesterday" before noon is the morning: 03:20 is not read as 15:20', () => {
  const early = Date.parse('2026-03-10T03:20:00-04:00');
  const interp = ask('how many people were here this time yesterday', { now: early });
  assert.equal(interp.to, Date.parse('2026-03-09T03:20:00-04:00'));
  const compare = ask('how does it compare with yesterday at the same time?', { now: early });
  assert.equal(compare.compare_with?.from, Date.parse('2026-03-09T03:20:00-04:00'));
});
