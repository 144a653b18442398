import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, questionContext, refused } from './scene-fixtures.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';

// Round Q (docs/decisions.md, "Round Q: scene questions"): the classes behind round Q's scene cases,
// each with phrasings of its own and phrasings where the change must not fire.

test('acts a camera does not see (checking in, buying, paying, booking, ordering) are refused with what is counted', () => {
  for (const q of [
    'how many guests checked in today',
    'how many people have checked in since 6pm',
    'how many tickets were sold this morning',
    'how many customers bought something today',
    'how many people paid at the till today',
    'how many rooms were booked today',
    'how many orders were there this afternoon',
    'how many customers were served since noon',
    'how many people signed up today',
    'how many check ins today',
  ]) {
    const reason = refused(q);
    assert.match(reason, /not what they do there/, q);
    assert.match(reason, /came in/, q);
  }
  // arrivals said plainly, and the people at a place named by who they are, stay answered
  for (const q of [
    'how many visitors came in today',
    'how many guests came in today',
    'how many people arrived since 6pm',
    'how many customers are in the lobby now',
  ]) {
    assert.ok(interpretQuery(q, questionContext()).ok, q);
  }
  // a place named "booking hall" or "ticket hall" is not an act
  for (const location of ['ticket_hall', 'booking_hall', 'sales_floor']) {
    assert.ok(interpretQuery(`how many people are in the ${location.replace('_', ' ')} now`, questionContext({ location })).ok, location);
  }
});

test('a false start taken back with "sorry" or "I mean" is dropped when a whole question follows', () => {
  for (const q of [
    'cuantas... sorry, how many people were here at 4 in the afternoon',
    'how many cars, I mean how many people were here at 4pm',
    'sorry, how many people are in the lobby',
    'when did... no wait, how many people came in today',
  ]) {
    assert.equal(ask(q).metric, 'people', q);
  }
  assert.equal(ask('how many people, sorry, how many cars came in today', { location: 'car_park' }).metric, 'vehicles');
  // a correction of a part ("at 3, I mean at 4") is not a whole question: left as said and asked about
  refused('how many people were here at 3pm, I mean at 4pm');
  refused('cuantas personas hay, sorry');
});

test('"over its capacity of 60", "its limit of 60 people": the figure said is compared with', () => {
  for (const q of ['did the lobby go over its capacity of 60 today', 'was it over the capacity of 60 people today', 'did it go over its limit of 60 today']) {
    const i = ask(q);
    assert.equal(i.aggregate, 'threshold', q);
    assert.deepEqual([i.threshold?.op, i.threshold?.value, i.threshold?.capacity], ['>', 60, undefined], q);
  }
  // plain capacity stays the scene's own
  assert.equal(ask('did the lobby go over capacity today').threshold?.capacity, true);
});

test('"more than half full", "three quarters full": that share of capacity', () => {
  const cases: Array<[string, string, number]> = [
    ['is it more than half full right now', '>', 50],
    ['is the lobby over three quarters full', '>', 75],
    ['is it less than a quarter full now', '<', 25],
    ['was it more than half of capacity at any point today', '>', 50],
  ];
  for (const [q, op, value] of cases) {
    const i = ask(q);
    assert.equal(i.aggregate, 'threshold', q);
    assert.deepEqual([i.threshold?.op, i.threshold?.value, i.threshold?.share], [op, value, true], q);
  }
  // "half past", "half an hour": not a share of capacity
  assert.notEqual(ask('how many people were here at half past 9').aggregate, 'threshold');
  assert.notEqual(ask('how many people came in in the last half hour').aggregate, 'threshold');
});

test('vehicles queuing, queued or lined up at a time are the vehicles there then', () => {
  for (const q of [
    'how many cars were queuing at 19:25',
    'how many cars were queueing at 7pm',
    'how many vehicles were lined up at 7pm',
    'how many cars were queued at 7pm',
  ]) {
    const i = ask(q, { location: 'car_park' });
    assert.equal(i.metric, 'vehicles', q);
    assert.equal(i.aggregate, 'current', q);
  }
  assert.equal(ask('how many people are queuing now').metric, 'people');
});

test('a part of the place named by "end", "side" or "corner of" the place: answered for the whole place and said so', () => {
  const quay = { location: 'ferry_quay' };
  for (const q of [
    'how long has the person at the end of the quay been hanging around',
    'how many people are at the far end of the quay',
    'how many people are on the other side of the ferry quay now',
    'how many cars are in the corner of the quay',
  ]) {
    const i = ask(q, quay);
    assert.match(i.sub_area ?? '', /(end|side|corner) of the (ferry )?quay/, q);
  }
  // another place's end, or a yes/no about the part alone: refused as before
  refused('how many people at the end of the road', quay);
  refused('is anyone at the end of the quay', quay);
  // a place without a part named is untouched
  assert.equal(ask('how many people are on the quay', quay).sub_area, undefined);
});
