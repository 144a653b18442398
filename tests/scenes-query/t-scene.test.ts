import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, ask, makeDetection, ny, questionContext } from './scene-fixtures.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';
import { animalPlural, otherAnimalSubtype } from '../../src/org/scenes/query/other-animals.ts';

// Before round T (docs/decisions.md, "Before round T: scene questions"): animals other than cats and
// dogs answered from the scene's detections of them, a yes or no about a vehicle kind when no vehicle
// was counted, and a count "crossing" a number; each with phrasings where the change must not fire.

const yard = { location: 'yard' };
const goats = [makeDetection('animal', ny('09:20'), { location: 'yard', subtype: 'goat', count: 3 })];
const foxes = [makeDetection('animal', ny('07:05'), { location: 'yard', subtype: 'fox', count: 1 })];

test('an animal the detector does not label is answered from the scene’s detections of it', () => {
  const seenGoats = { ...yard, animalsSeen: ['goat'] };
  assert.match(answer('when did them goats get in', goats, seenGoats), /09:20/);
  assert.match(answer('what time was the goat seen?', goats, seenGoats), /09:20/);
  assert.match(answer('were there goats in the yard this morning?', goats, seenGoats), /^Yes\b/);
  assert.match(answer('any goats in the yard since 9:30?', goats, seenGoats), /^No\b/);
  assert.equal(ask('any goats today?', seenGoats).subtype, 'goat');
  assert.match(answer('was the fox seen this morning', foxes, { ...yard, animalsSeen: ['fox'] }), /^Yes\b.*07:05/);
  assert.match(answer('how many foxes were seen today?', foxes, { ...yard, animalsSeen: ['fox'] }), /sighting/);
});

test('with no detections of that animal it is refused as before, naming what the detector knows', () => {
  for (const [q, subtypes] of [
    ['when did the goats get in', ['goat']],
    ['any reindeer in the yard this morning?', ['reindeer']],
    ['what time was the fox seen', ['fox']],
    ['any sheep today?', ['sheep']],
  ] as const) {
    const r = interpretQuery(q, questionContext(yard));
    assert.equal(r.ok, false, q);
    if (!r.ok) {
      assert.match(r.reason, /cats and dogs only/, q);
      assert.deepEqual(r.animals, subtypes, q);
    }
  }
  // the scene holds goats, not foxes; an animal beside a cat or a dog, or two animals, stay refused
  for (const q of ['what time was the fox seen', 'any goats or dogs today?', 'any goats or sheep today?', 'any birds in the yard?']) {
    assert.equal(interpretQuery(q, questionContext({ ...yard, animalsSeen: ['goat'] })).ok, false, q);
  }
  // cats and dogs are read as always, and never carry the list
  const dog = interpretQuery('any dogs today?', questionContext(yard));
  assert.ok(dog.ok && dog.interpretation.subtype === 'dog');
});

test('an animal’s subtype and plural', () => {
  assert.deepEqual(['goats', 'foxes', 'reindeer', 'geese', 'horses', 'Sheep'].map(otherAnimalSubtype), ['goat', 'fox', 'reindeer', 'goose', 'horse', 'sheep']);
  assert.deepEqual(['goat', 'fox', 'reindeer', 'sheep', 'goose'].map(animalPlural), ['goats', 'foxes', 'reindeer', 'sheep', 'geese']);
});

test('a yes or no about a vehicle kind: "no" when no vehicle of any kind was counted, never a yes', () => {
  const none = [makeDetection('vehicle', ny('10:10'), { location: 'yard', count: 0 })];
  const three = [makeDetection('vehicle', ny('10:10'), { location: 'yard', count: 3 })];
  for (const q of ['any buses or cars at the yard right now?', 'are there any trucks in the yard now?', 'any vans here right now']) {
    assert.match(answer(q, none, yard), /^No, there are no vehicles in the yard now .*cannot tell/, q);
    const some = answer(q, three, yard);
    assert.doesNotMatch(some, /^(Yes|No)\b/, q);
    assert.match(some, /3 vehicles/, q);
  }
  // a count asked, not a yes or no: said as before
  assert.doesNotMatch(answer('how many buses are in the yard now?', none, yard), /^No,/);
});

test('a count crossing a number: cross, break, surpass', () => {
  for (const [q, value] of [
    ['did it cross 50 people today', 50],
    ['did the count cross 20 this morning?', 20],
    ['did it break 30 people today', 30],
    ['did the crowd surpass 40 today', 40],
  ] as const) {
    const i = ask(q);
    assert.equal(i.aggregate, 'threshold', q);
    assert.deepEqual([i.threshold?.op, i.threshold?.value], ['>', value], q);
  }
  // crossing a road or a clock time is no count
  for (const q of ['did anyone cross the lobby after 5pm', 'did it cross 5pm', 'did more than 50 people cross the lobby today']) {
    const r = interpretQuery(q, questionContext());
    assert.ok(!r.ok || r.interpretation.threshold?.value !== 5, q);
  }
});

test('"what happened" with vehicle readings far apart: the most at once with its time, no count of arrivals', () => {
  const people = [
    ['08:00', 2],
    ['09:00', 5],
    ['10:00', 3],
  ].map(([t, n]) => makeDetection('person_count', ny(t as string), { location: 'car_park', value: n as number }));
  const sparse = [
    ['07:10', 3],
    ['09:35', 2],
  ].map(([t, n]) => makeDetection('vehicle', ny(t as string), { location: 'car_park', count: n as number }));
  const lot = { location: 'car_park' };
  for (const q of ['what happened this morning?', 'anything happen since 8?', 'what went on between 8 and 10']) {
    const a = answer(q, [...people, ...sparse], lot);
    assert.match(a, /at most 3 vehicles at once \(at 07:10|at most 2 vehicles at once \(at 09:35/, q);
    assert.match(a, /too far apart to tell how many came in/, q);
    assert.doesNotMatch(a, /\d+ vehicles? came in|no vehicles came in/, q);
  }
  // dense readings from before the span and tracked vehicles keep their arrivals
  const dense = [
    ['07:50', 0],
    ['08:05', 1],
    ['08:20', 2],
    ['08:35', 2],
    ['08:50', 4],
    ['09:05', 4],
    ['09:20', 3],
    ['09:35', 3],
    ['09:50', 3],
    ['10:05', 3],
  ].map(([t, n]) => makeDetection('vehicle', ny(t as string), { location: 'car_park', count: n as number }));
  assert.match(answer('what happened since 8?', [...people, ...dense], lot), /4 vehicles came in/);
  const tracked = sparse.map((d, i) => ({ ...d, track_id: `v${i}` }));
  assert.match(answer('what happened this morning?', [...people, ...tracked], lot), /vehicles? came in/);
});

test('a spot after "that person by the" named by an animal noun is a spot, not an animal', () => {
  for (const q of [
    'how long has that person by the fish stall been hanging around?',
    'how long has the guy by the horse box been here?',
    'how long has that woman by the fish stand been waiting?',
  ]) {
    const i = ask(q, { location: 'market_hall' });
    assert.equal(i.aggregate, 'dwell', q);
    assert.ok(i.landmark, q);
  }
  // an animal asked about is still one
  assert.match(interpretQuery('any fish in the yard today?', questionContext(yard)).ok ? '' : 'refused', /refused/);
  assert.match(interpretQuery('how long has the horse been in the yard?', questionContext(yard)).ok ? '' : 'refused', /refused/);
});

test('"since the peak" is from the peak’s time to now; anything but a trend today is asked back', () => {
  const counts = [
    ['08:00', 4],
    ['08:30', 20],
    ['09:00', 38],
    ['09:30', 31],
    ['10:00', 22],
  ].map(([t, n]) => makeDetection('person_count', ny(t as string), { location: 'lobby', value: n as number }));
  for (const q of ['is the lobby emptying out since the peak?', 'has it got quieter since it peaked', 'has the lobby been emptying since the busiest point?']) {
    assert.equal(ask(q).since_peak, true, q);
    assert.match(answer(q, counts), /^Yes, .*since the peak of 38 at 09:00, from 38 people at 09:00 to 22/, q);
  }
  assert.match(answer('is it filling up again since the peak?', counts), /^No, /);
  for (const q of ['how many people since the peak', 'is it emptying out since the peak yesterday'])
    assert.equal(interpretQuery(q, questionContext()).ok, false, q);
  // a peak with no "since" is the peak
  assert.equal(ask('what was the peak today?').since_peak, undefined);
  // animals a detection counts are that many at once
  const herd = [makeDetection('animal', ny('09:40'), { location: 'yard', subtype: 'reindeer', count: 4 })];
  assert.match(answer('any reindeer this morning?', herd, { ...yard, animalsSeen: ['reindeer'] }), /at most 4 reindeer at once/);
});
