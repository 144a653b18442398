import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NOW, ask, answer, makeDetection, ny, refused } from './scene-fixtures.ts';

/**
 * Round J's scene causes, each in general and in other words than the set's (docs/decisions.md,
 * "Round J: scene questions"): "past" after a verb of going, a slip of the question word, the crowd
 * as a number of people, a part of a day said apart from its day, whether any of a kind of vehicle
 * were there, and what the camera shows. Each with phrasings where the change must not fire.
 */

const GATE = { location: 'main_gate' };
const LOT = { location: 'parking_lot' };
/** an hour on Monday 9 March, the day before the fixtures' now (Tuesday 10 March, 10:14) */
const yesterday = (hour: number) => ny(`${String(hour).padStart(2, '0')}:00`, '2026-03-09');

test('"past" after a verb of going is going by the place, not a time', () => {
  for (const [q, aggregate] of [
    ['how many people walked past the gate since 9?', 'arrivals'],
    ['how many cars drove past in the last hour?', 'arrivals'],
    ['how many dogs have come past since 8am?', 'arrivals'],
    ['has anyone gone past the gate since 8?', 'presence'],
  ] as const) {
    assert.equal(ask(q, GATE).aggregate, aggregate, q);
  }
  assert.equal(ask('how many dogs have come past since 8am?', GATE).metric, 'animals');
  // a time word still: another word before it, or a number or a clock after it
  const lastHour = ask('how many people came in the past hour?', GATE);
  assert.equal(NOW - lastHour.from, 60 * 60_000);
  assert.equal(ask('anyone at the gate at half past nine?', GATE).from, ny('09:30'));
  // a number and what is counted after it: a count crossing the number (docs/decisions.md, "Before round Q: scene questions")
  assert.equal(ask('has it gone past 20 people today?', GATE).aggregate, 'threshold');
  refused('has it gone past 20 today?', GATE);
  refused('how many people came in past midnight?', GATE);
});

test('a slip of the question word at the head of a question is that word, when one fits', () => {
  assert.equal(ask('wen did the last person leave?').aggregate, 'last_departure');
  assert.equal(ask('so wen was the lobby last empty').expect_empty, true);
  assert.equal(ask('hw long has he been here').aggregate, 'dwell');
  assert.equal(ask('hw many people are here now?').aggregate, 'current');
  // two question words one slip away ("whn": when or who), the word alone, or not at the head: asked
  assert.match(refused('whn was the lobby last empty'), /"whn"/);
  assert.match(refused('wen'), /"wen"/);
  assert.match(refused('the wen was seen today'), /"wen"/);
  // a word the vocabulary knows is never rewritten ("were" is no "where")
  assert.equal(ask('were there people here at 9?').aggregate, 'presence');
});

test('the crowd as a noun with a count, a peak or an average is a number of people; how crowded is the crowd level', () => {
  for (const q of [
    'what was the biggest crowd today?',
    'largest crowd this morning?',
    'when were the crowds at their peak today?',
    'how many people in the crowd now?',
    'average crowd size today',
    'what was the crowd size at 9?',
  ]) {
    assert.equal(ask(q).metric, 'people', q);
  }
  for (const q of [
    'how crowded is it?',
    'peak crowd level today',
    'what was the peak crowd density today?',
    "what's the crowd like now?",
    'is there a crowd?',
  ]) {
    assert.equal(ask(q).metric, 'crowd_density', q);
  }
  // "occupancy" now is still its share of capacity
  assert.equal(ask("what's the occupancy now?").metric, 'crowd_density');
});

test('a part of a day said apart from its day is that part of that day', () => {
  const evening = ask('what time was the evening peak yesterday?');
  assert.deepEqual([evening.aggregate, evening.from, evening.to], ['peak', yesterday(17), yesterday(21)]);
  const lunch = ask('what was the lunch peak on monday?');
  assert.deepEqual([lunch.from, lunch.to], [yesterday(12), yesterday(14)]);
  assert.equal(ask('how many people at 9 in the lobby yesterday?').from, yesterday(9));
  const morning = ask('what was the peak today in the morning');
  assert.deepEqual([morning.from, morning.to], [ny('05:00'), NOW]);
  // the day part said before its day: chrono read it on today's date
  const afternoon = ask('what was the quietest it got in the afternoon yesterday?');
  assert.deepEqual([afternoon.from, afternoon.to], [yesterday(12), yesterday(17)]);
  // two times joined, or a start whose end is unclear, are still two times
  assert.match(refused('what was the peak at lunch and yesterday?'), /more than one time/);
  assert.match(refused('what was the peak yesterday since 9am?'), /more than one time/);
  assert.match(refused('what was the peak in the last hour today?'), /more than one time/);
});

test('whether any of a kind of vehicle were there is every vehicle counted, said so, never a yes', () => {
  const cars = [
    makeDetection('vehicle', ny('08:30'), { count: 1, location: 'parking_lot' }),
    makeDetection('vehicle', ny('09:50'), { count: 3, location: 'parking_lot' }),
  ];
  const now = ask('any vans in the lot now?', LOT);
  assert.deepEqual([now.metric, now.aggregate, now.yes_no], ['vehicles', 'current', false]);
  const said = answer('any vans in the lot now?', cars, LOT);
  assert.match(
    said,
    /^There are 3 vehicles in the parking lot now \(10:14\)\. The cameras count vehicles of every kind together and cannot tell "vans" from other vehicles/,
    said,
  );
  assert.doesNotMatch(said, /^(Yes|No)\b/);
  assert.equal(ask('were there lorries here this morning?', LOT).aggregate, 'arrivals');
  assert.equal(ask('is there a truck in the lot?', LOT).aggregate, 'current');
  // one vehicle named as known, the first or last, or empty of a kind: still refused
  for (const q of ['is the van still here?', 'was the last vehicle a truck?', 'is the lot empty of trucks?', 'are there more than 3 trucks?']) {
    assert.match(refused(q, LOT), /cannot tell "(?:van|truck|trucks)" apart/, q);
  }
});

test('what the camera shows or sees is an overview of the scene', () => {
  for (const q of ['what is the lobby camera showing?', 'what can the camera see right now?', 'what does the feed show?']) {
    const i = ask(q);
    assert.deepEqual([i.metric, i.aggregate, i.from, i.to], ['activity', 'summary', NOW, NOW], q);
  }
  const morning = ask('what did the camera pick up this morning?');
  assert.deepEqual([morning.aggregate, morning.from], ['summary', ny('05:00')]);
  // something counted or a time asked is that question, not an overview
  assert.equal(ask('how many people can the camera see?').aggregate, 'current');
  assert.equal(ask('what time did the camera see the last person?').aggregate, 'last_seen');
  refused('what people did the camera see?');
});
