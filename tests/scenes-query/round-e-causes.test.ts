import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { QueryContext } from '../../src/org/scenes/query/query.ts';
import { answer, ask, makeDetection, ny, refused } from './scene-fixtures.ts';

/**
 * The general causes behind round E's wrong scene answers (docs/decisions.md, "Scene questions:
 * round E's causes"), each tested on questions other than the set's own.
 */

const YARD: Partial<QueryContext> = { location: 'garden' };
const animal = (time: string, subtype: 'cat' | 'dog', track: string) =>
  makeDetection('animal', ny(time), { location: 'garden', subtype, track_id: track, dwell_s: 0 });

test('"first" about an animal selects the earliest sighting, "last" the latest, never the other way round', () => {
  const history = [animal('07:10', 'dog', 'd1'), animal('08:30', 'dog', 'd2'), animal('09:50', 'dog', 'd3'), animal('09:00', 'cat', 'c1')];
  for (const q of ['what time did the dog first appear today?', 'when was the earliest dog sighting', 'when did we first see the dog today']) {
    const i = ask(q, YARD);
    assert.equal(i.aggregate, 'first_seen', q);
    assert.equal(i.subtype, 'dog', q);
    assert.match(answer(q, history, YARD), /^The first dog sighting in the garden today was at 07:10 \(3 dog sightings in all, the latest at 09:50\)\./, q);
  }
  // with no time named, "first" is today's, as for people and vehicles
  assert.equal(ask('when did the dog first show up?', YARD).from, ny('00:00'));
  assert.match(answer('when was the dog last spotted?', history, YARD), /latest dog sighting .* at 09:50/);
  assert.match(refused('when was the dog first and last seen today?', YARD), /first and the last/);
  // "first" where it is not the question asked is not dropped
  refused('how many dogs came first this morning?', YARD);
});

test('"busier/quieter than usual" with nothing named: people at a dock or a road, both counts only where cars park', () => {
  for (const location of ['loading_bay', 'dock', 'service_road']) {
    assert.equal(ask('is it quieter than normal around now?', { location }).metric, 'people', location);
    assert.equal(ask('is the place busier than on a typical day?', { location }).metric, 'people', location);
  }
  for (const location of ['parking_lot', 'garage']) {
    assert.equal(ask('is it quieter than normal around now?', { location }).metric, 'activity', location);
  }
  // a kind named is that kind anywhere
  assert.equal(ask('are there more vehicles than usual?', { location: 'dock' }).metric, 'vehicles');
});

test('a clock time written with a dot is a clock time after a time word or before am/pm; other decimals are not', () => {
  const at = ask('how many people were here at 8.45 this morning?');
  assert.equal(at.from, ny('08:45'));
  assert.equal(at.to, ny('08:45'));
  const range = ask('was anybody around between 6.15 and 7.40am?');
  assert.equal(range.from, ny('06:15'));
  assert.equal(range.to, ny('07:40'));
  assert.equal(ask('any cars since 9.05am?').from, ny('09:05'));
  // a decimal that is not after a time word stays unread, so the question is asked about
  refused('were there more than 3.5 people in the last hour?');
});

test('midnight inside a range is 00:00: "from midnight till 5" is the small hours, never from 05:00', () => {
  for (const q of ['was anyone here from midnight till 5?', 'any people between midnight and 5am?', 'was anybody here from midnight until 5']) {
    const i = ask(q);
    assert.equal(i.from, ny('00:00'), q);
    assert.equal(i.to, ny('05:00'), q);
  }
  // midnight at the end, with the start's half of the day said
  const evening = ask('was anyone here between 9pm and midnight yesterday?');
  assert.equal(evening.from, ny('21:00', '2026-03-09'));
  assert.equal(evening.to, ny('00:00'));
});

test('phrasal trend verbs in their British spellings and other inflections read as a fall or a rise', () => {
  for (const q of [
    'has the lobby quietened down since 9?',
    'has it been easing off this morning?',
    'are things winding down in here?',
    'has it settled down since 8am?',
  ]) {
    const i = ask(q);
    assert.equal(i.aggregate, 'trend', q);
    assert.equal(i.direction, 'down', q);
  }
  assert.equal(ask('has it been filling up since 8?').direction, 'up');
});
