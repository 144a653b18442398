import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';
import { answer, ask, makeDetection, ny, refused } from './scene-fixtures.ts';

/**
 * What a new operator asks that the earlier sets did not, and round E's questions still asked
 * about (docs/decisions.md, "Scene questions: round F"), each in other words than the sets': when
 * a count first went past a number, "… and how many" after a peak, the crowd level against
 * capacity, a busy period named by its event, rates per hour, "different people" (tracks, not
 * identities), and arrivals never fewer than the count itself shows. Questions that cannot be
 * answered truthfully are refused with what was understood.
 */

// the lobby's person count through the morning (NOW is 10:14 in New York, capacity 40)
const COUNTS: Array<[string, number]> = [
  ['07:50', 0],
  ['08:00', 4],
  ['08:30', 12],
  ['09:00', 25],
  ['09:20', 31],
  ['09:40', 18],
  ['10:00', 9],
  ['10:10', 7],
];
const count = (time: string, value: number) => makeDetection('person_count', ny(time), { value });
const MORNING: DetectionRecord[] = [
  ...COUNTS.map(([t, v]) => count(t, v)),
  // two tracked people among the many the counter saw
  makeDetection('person', ny('09:05'), { track_id: 'a', dwell_s: 60 }),
  makeDetection('person', ny('09:10'), { track_id: 'b', dwell_s: 60 }),
].sort((a, b) => a.at - b.at);

test('when a count first went past a number: the first reading of the span (today when none is named) that meets it', () => {
  for (const q of [
    'when did it first go over 20 people?',
    'what time did the lobby first have more than 20 people?',
    'when did the count first exceed 20?',
    'at what time did it first pass 20 people this morning?',
  ]) {
    const i = ask(q);
    assert.equal(i.aggregate, 'threshold', q);
    assert.equal(i.threshold?.basis, 'first', q);
    assert.equal(i.yes_no, false, q);
    assert.match(answer(q, MORNING), /^The lobby first had more than 20 people at 09:00 (?:today|this morning \(05:00 to 10:14\)): 25 people\.$/, q);
  }
  assert.equal(ask('when did it first go over 20 people?').from, ny('00:00'));
  // "reach"/"hit" is at least; a share of capacity is said with its head count
  assert.match(answer('when did it first reach 25 people?', MORNING), /^The lobby first had at least 25 people at 09:00 today: 25 people\.$/);
  assert.match(
    answer('when did it first hit 50% of capacity?', MORNING),
    /^The lobby first had at least 50% of its capacity of 40 \(20 people\) at 09:00 today/,
  );
  // never reached: said with the most there was, never a time it did not happen
  assert.match(
    answer('when did it first go above 35 people today?', MORNING),
    /^The lobby never had more than 35 people today: the most at once was 31 \(at 09:20\)\.$/,
  );
  assert.match(answer('when did it first reach capacity?', MORNING), /^The lobby never had at least its capacity of 40 today/);
  // "reach 5pm", "in the past 5 minutes": a time, never a count crossing
  assert.equal(ask('were there people in the past 5 minutes?').aggregate, 'presence');
  // a crossing of arrivals is not a count crossing
  refused('when did arrivals first go over 10 today?');
});

test('"when … and how many?" is one question when the answer gives both (the peak, the lowest)', () => {
  const peak = ask('when was the lobby busiest this morning and how many people?');
  assert.equal(peak.aggregate, 'peak');
  assert.match(answer('when was the lobby busiest this morning and how many people?', MORNING), /^Peak of 31 people in the lobby at 09:20/);
  assert.equal(ask('when was it quietest since 8 and how many?').aggregate, 'minimum');
  assert.equal(ask('when did it first go over 20 and how many?').threshold?.basis, 'first');
  // two questions the answer would not both cover are still two
  refused('how many came in and how many left?');
  refused('how many people and how many cars?');
  refused('when did the last person leave and how many?');
});

test('the crowd level said against capacity is the crowd level', () => {
  for (const q of ['how busy is the lobby relative to its capacity?', 'how full is it compared with capacity right now?', 'occupancy vs capacity?']) {
    const i = ask(q);
    assert.equal(i.metric, 'crowd_density', q);
    assert.match(answer(q, MORNING), /^The lobby has 7 people now \(10:14\), 18% of its capacity of 40\.$/, q);
  }
});

test('a busy period named by its event takes its day part ("the morning rush", "the afternoon pick-up"); without one it is asked about', () => {
  const rush = ask('when did the morning rush peak?');
  assert.equal(rush.aggregate, 'peak');
  assert.equal(rush.from, ny('05:00'));
  assert.match(answer('when did the morning rush peak?', MORNING), /^Peak of 31 people in the lobby at 09:20/);
  assert.equal(ask('how busy was the morning drop off?').from, ny('05:00'));
  // no day part: which run, which rush, is not guessed
  refused('when was the school run busiest?');
  refused('when did rush hour peak?');
});

test('rates: arrivals (or departures) per hour over the span, said with the span', () => {
  for (const q of ['how many people per hour since 8?', 'how many people arrived per hour since 8am?', 'how many people an hour since 8?']) {
    const i = ask(q);
    assert.equal(i.aggregate, 'arrivals', q);
    assert.equal(i.per_hour, true, q);
    // the count rose 4 → 12 → 25 → 31 since 08:00: 27 arrivals over 2 h 14 min
    assert.match(
      answer(q, MORNING),
      /^27 people arrived in the lobby since 08:00 \(from the rises of the person count; 2 of them were tracked\), about 12\.1 people per hour over those 2 h 14 min\.$/,
      q,
    );
  }
  assert.match(
    answer('how many people left per hour since 9:30?', MORNING),
    /^24 people left the lobby since 09:30, about 32\.7 people per hour over those 44 min\.$/,
  );
  // "an hour ago" after a count noun is a time, never a rate
  for (const q of ['how many people an hour ago?', 'were there people an hour ago?']) {
    const i = ask(q);
    assert.equal(i.per_hour, undefined, q);
    assert.equal(i.from, ny('09:14'), q);
  }
  // other units, or a rate of something that is not arrivals, are asked about
  refused('how many people per minute?');
  refused('what was the peak per hour this morning?');
  refused('how long did people stay per hour?');
});

test('"different people": arrivals, said to be tracks (or count rises), not identities', () => {
  const tracksOnly = MORNING.filter((d) => d.type === 'person');
  assert.match(answer('how many different people came in today?', tracksOnly), /^2 people arrived in the lobby today\. That counts tracks, not identities/);
  assert.match(
    answer('how many unique visitors today?', MORNING),
    /^31 people arrived in the lobby today \(from the rises of the person count; 2 of them were tracked\)\. That counts rises of the person count, not identities/,
  );
});

test('arrivals and departures are never fewer than the count itself shows', () => {
  // the count rose from 4 to 31 since 08:00 while 2 people were tracked: "2 arrived" would be false
  const since8 = answer('how many people came in since 8?', MORNING);
  assert.doesNotMatch(since8, /^2 people/);
  assert.match(since8, /^27 people arrived/);
  // tracks that account for the count are the figure
  const tracked = [
    count('09:00', 0),
    count('09:10', 2),
    makeDetection('person', ny('09:05'), { track_id: 'x' }),
    makeDetection('person', ny('09:09'), { track_id: 'y' }),
    makeDetection('person', ny('09:30'), { track_id: 'z' }),
  ];
  assert.match(
    answer(
      'how many people came in since 9?',
      tracked.sort((a, b) => a.at - b.at),
    ),
    /^3 people arrived in the lobby since 09:00\.$/,
  );
  // the count fell from 31 to 7 since 09:20 with no track leaving in that time: at least 24 left
  assert.match(answer('how many people left since 9:15?', MORNING), /^24 people left the lobby since 09:15\.$/);
});

test('what a new operator asks and cannot be answered truthfully is refused, saying what was understood', () => {
  // asked the negative way: a yes or no reads either way round
  assert.match(refused('no cars at all today?'), /negative way/);
  assert.match(refused('were there no people here this morning?'), /negative way/);
  // a second place: this scene answers for its own
  assert.match(refused('is the lobby busier than the car park?'), /cannot answer about/);
  // someone the question takes as known, with nothing to count
  refused('is he still there?');
});

test('other phrasings a new operator uses are read as the questions they are', () => {
  // when it last became empty: the latest reading of zero, with when it stopped being so
  assert.match(answer('when did the lobby last become empty?', MORNING), /^The lobby was last empty of people at 07:50 \(2 hours ago\), until 08:00\.$/);
  // "at any point today": presence over today with the most at once
  assert.match(answer('was anybody in at any point today?', MORNING), /^Yes, people were in the lobby today, up to 31 at once, last seen at 10:10\.$/);
  // a kind of vehicle the cameras do not tell apart: the count of every vehicle, said so
  assert.match(answer('how many lorries came through since 8?', MORNING), /cannot tell "lorries" from other vehicles, so that figure is every vehicle\.$/);
  // "still … around" is now
  assert.equal(ask('still anyone around?').from, ask('still anyone around?').to);
  // a spoken clock in "since"
  assert.equal(ask('how many people have come in since quarter to nine?').from, ny('08:45'));
});
