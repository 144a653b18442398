import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { QUESTION_SCENE, answer, ask, makeDetection, ny, refused } from './scene-fixtures.ts';
import { answerQuery } from '../../src/org/scenes/query/query.ts';

// Round L (docs/decisions.md, "Round L: scene questions"): the causes of the round's wrong and asked
// scene answers, each in phrasings of our own, with phrasings where the change must not fire.

const DECK = { location: 'parking_deck' };
const people = (time: string, value: number, location = 'lobby'): DetectionRecord => makeDetection('person_count', ny(time), { location, value });
const cars = (time: string, count: number): DetectionRecord => makeDetection('vehicle', ny(time), { location: 'parking_deck', count });
const bikes = (time: string, count: number): DetectionRecord => makeDetection('bicycle', ny(time), { location: 'parking_deck', count });
const rising = [cars('09:15', 10), cars('09:30', 14), cars('09:45', 18), cars('10:00', 22), cars('10:10', 25)];

test('a yes/no question whose subject is "the number of …" is answered yes or no', () => {
  for (const q of ['has the number of cars been going up in the last hour?', 'is the number of vehicles rising?', 'has the number of cars gone up since 9?']) {
    const i = ask(q, DECK);
    assert.equal(i.aggregate, 'trend', q);
    assert.equal(i.yes_no, true, q);
  }
  assert.match(answer('has the number of cars been going up in the last hour?', rising, DECK), /^Yes, /);
  assert.match(answer('has the number of cars been going down in the last hour?', rising, DECK), /^No, /);
  // not a yes/no: a question that asks for the number
  for (const q of ['what is the number of cars now?', 'the number of cars now?', 'how many cars now?']) {
    assert.doesNotMatch(answer(q, rising, DECK), /^(Yes|No)\b/, q);
  }
});

test('a yes/no question about a counted kind now says yes or no before the count', () => {
  const four = [bikes('10:13', 4)];
  for (const q of ['are there any bicycles here now?', 'is there a bike on the deck?', 'any bikes parked at the moment?']) {
    assert.match(answer(q, four, DECK), /^Yes, there are 4 bicycles in the parking deck now/, q);
  }
  assert.match(answer('any bikes here right now?', [bikes('10:13', 0)], DECK), /^No, there are 0 bicycles/);
  // asked for the count: the count alone
  assert.match(answer('how many bikes are here now?', four, DECK), /^There are 4 bicycles/);
  // a number to compare with is not read as "any": asked back, never "yes, 4" to "more than 5"
  for (const q of ['are there more than 5 bikes here?', 'more bikes than usual?', 'fewer than 2 bicycles now?']) refused(q, DECK);
});

test('"are there people here now?" opens with a verb: whether any, said yes or no', () => {
  const now = [people('10:10', 6)];
  for (const q of ['are there people in the lobby now?', 'are people currently here?', 'is there still someone in the lobby right now?']) {
    assert.match(answer(q, now, {}), /^Yes, 6 people are in the lobby now/, q);
  }
  assert.match(answer('are there people in the lobby now?', [people('10:10', 0)], {}), /^No\b/);
  // an amount asked ("many", "lots") or a count named: the count, as before
  for (const q of ['are there many people now?', 'are there lots of people in the lobby now?', 'how many people are here now?']) {
    assert.match(answer(q, now, {}), /^There are 6 people in the lobby now/, q);
  }
});

test('"any movement?", "anything happen since 9?": the overview after a yes or a no', () => {
  const busy = [people('09:10', 0), people('09:30', 3), people('10:10', 2)];
  for (const q of ['any movement since 9?', 'anything happen since 9?', 'any activity since 9am?']) {
    assert.match(answer(q, busy, {}), /^Yes, since 09:00 in the lobby: /, q);
  }
  assert.match(answer('any movement since 9?', [people('09:10', 0), people('10:10', 0)], {}), /^No, since 09:00 in the lobby: no people arrived/);
  assert.match(answer('any movement?', [people('10:10', 2)], {}), /^Yes, the lobby has 2 people now/);
  // asked what happened, or a yes/no the overview does not weigh (a rise): the overview alone
  for (const q of ['what happened since 9?', 'what went on since 9am?', 'did it go up since 9?'])
    assert.match(answer(q, busy, {}), /^Since 09:00 in the lobby: /, q);
});

test('a past afternoon or evening whose answer differs with its later end is asked back with both', () => {
  const evening = { now: ny('19:10') };
  const crowd = [people('16:00', 14), people('17:00', 35), people('17:30', 41), people('17:50', 38)];
  const told = (q: string) => {
    const i = ask(q, evening);
    const upTo = (to: number) => crowd.filter((d) => d.at <= to);
    return answerQuery(
      i,
      upTo(i.to),
      QUESTION_SCENE,
      (i.baseline ?? []).map((s) => upTo(s.to)),
    );
  };
  for (const q of [
    'more than 40 people at any point this afternoon?',
    'were there over 40 people at any time this afternoon?',
    'what was the peak this afternoon?',
  ]) {
    const a = told(q);
    assert.match(a.ask ?? '', /depends on when "this afternoon" ends: to 17:00, .* To 18:00, .*41 .*17:30/, q);
  }
  // the same yes or no either way: answered over 12:00 to 17:00, as before
  assert.match(told('more than 30 people at any point this afternoon?').answer, /^Yes, the most at once this afternoon \(12:00 to 17:00\) was 35/);
  assert.match(told('more than 50 people this afternoon?').answer, /^No\b/);
  assert.match(told('was anyone here this afternoon?').answer, /^Yes\b/);
  // counts over a span and other parts of a day are not weighed twice
  assert.equal(told('how many people arrived this afternoon?').ask, undefined);
  assert.equal(ask('more than 40 people at any point this morning?', evening).late_end, undefined);
  // the afternoon still reads as 12:00 to 17:00
  const yesterday = ask('how many people were here yesterday afternoon?');
  assert.equal(yesterday.from, ny('12:00', '2026-03-09'));
  assert.equal(yesterday.to, ny('17:00', '2026-03-09'));
});

test('a non-word with two letters swapped is the one vocabulary word that fits; "rite now" is right now', () => {
  assert.equal(ask('any aminals in the lobby today?').metric, 'animals');
  assert.equal(ask('any vehilces here now?').metric, 'vehicles');
  assert.equal(ask('how many poeple were here today?').metric, 'people');
  assert.equal(ask('how many ppl rite now').aggregate, 'current');
  assert.equal(ask('hw many ppl here rite now?').metric, 'people');
  // "rite" on its own is a word (a ceremony), not "right"
  refused('was the rite over by 9?');
  // a real word stays what it says, swapped letters or not ("trail" is not "trial")
  refused('any trail in the lobby today?');
});
