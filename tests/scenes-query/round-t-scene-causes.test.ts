import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answer, answerWithHistory, ask, makeDetection, ny, questionContext } from './scene-fixtures.ts';
import { interpretQuery } from '../../src/org/scenes/query/query-interpreter.ts';

// Round T (docs/decisions.md, "Round T: scene questions"): moving about a place is being there, not
// arriving; texted words without vowels; the first or last sighting of a counted kind; a part of the
// day with a clock inside it is one span. Each with phrasings where the change must not fire.

const lot = { location: 'car park' };

test('walking, wandering or milling about a place is presence, never arrivals', () => {
  for (const q of [
    'anyone walking around the car park right now?',
    'anyone wandering about right now',
    'is anyone wandering the car park now?',
    'people milling about right now?',
    'anybody strolling round at the moment?',
  ]) {
    const i = ask(q, lot);
    assert.ok(i.aggregate === 'presence' || i.aggregate === 'current', `${q}: ${i.aggregate}`);
    assert.equal(i.from, i.to, q);
  }
  assert.equal(ask('how many people walking around now', lot).aggregate, 'current');
  // a question in the past is read as before ("wandering around at 9" is asked back, before-round-s-scene.test.ts)
  assert.equal(interpretQuery('were people wandering around at 9', questionContext()).ok, false);
  // ways of coming in stay arrivals
  for (const q of [
    'anyone come in?',
    'anyone turned up?',
    'anyone walk in?',
    'anyone wandered in today?',
    'anyone walking in right now?',
    'how many people walked in today',
  ]) {
    assert.equal(ask(q, lot).aggregate, 'arrivals', q);
  }
  // people walking around now (the scene shows 2), answered with a yes from the count now
  const history = [makeDetection('person_count', ny('10:10'), { location: 'car park', count: 2 })];
  assert.match(answerWithHistory('anyone walking around the car park right now?', history, 'car park'), /^Yes\b/);
});

test('a word texted without its vowels is the one question word with those letters', () => {
  assert.equal(ask('hw mny ppl now').aggregate, 'current');
  assert.equal(ask('how many vhcls now').metric, 'vehicles');
  assert.equal(ask('when was the frst car seen').aggregate, 'first_seen');
  assert.equal(ask('lst person seen').aggregate, 'last_seen');
  const cat = ask('lst time a cat was seen');
  assert.deepEqual([cat.metric, cat.aggregate, cat.subtype], ['animals', 'presence', 'cat']);
  assert.equal(ask('1st time a dog was seen').aggregate, 'first_seen');
  assert.equal(ask('frst time a dog was seen').aggregate, 'first_seen');
  // "the 1st" is still a date, "since march 1st" the first of March
  assert.equal(new Date(ask('how many people since march 1st').from).getUTCDate(), 1);
});

test('the last or first time a cat was seen is when it was seen', () => {
  const cats = [makeDetection('animal', ny('07:10'), { subtype: 'cat', track_id: 't1' })];
  assert.match(answer('last time a cat was seen', cats), /07:10/);
  assert.match(answer('lst time a cat was seen', cats), /07:10/);
  assert.equal(ask('first time a cat was seen this week').aggregate, 'first_seen');
  // a bare "last cat" with no when is still asked back
  assert.equal(interpretQuery('last cat seen', questionContext()).ok, false);
});

test('the first or last bicycle seen, like people and vehicles', () => {
  const bikes = [
    makeDetection('bicycle', ny('07:30'), { count: 0 }),
    makeDetection('bicycle', ny('08:00'), { count: 2 }),
    makeDetection('bicycle', ny('09:10'), { count: 1 }),
    makeDetection('bicycle', ny('09:40'), { count: 0 }),
  ];
  const first = ask('when was the first bike seen today?');
  assert.deepEqual([first.metric, first.aggregate, first.from], ['objects', 'first_seen', ny('00:00')]);
  assert.match(answer('when was the first bike seen today?', bikes), /first seen .* at 08:00/);
  assert.match(answer('when was the last bicycle seen', bikes), /last seen .* at 09:10/);
  assert.match(answer('last time a bike was seen', bikes), /09:10/);
  assert.match(answer('when was the first bike seen since 9', bikes), /09:10/);
  assert.match(answer('first bike seen since 9:30', bikes), /^No bicycles were seen/);
  // counts and peaks of bicycles are read as before; both ends at once, or a count with a sighting, asked back
  assert.equal(ask('how many bikes now').aggregate, 'current');
  assert.equal(ask('most bikes at once today').aggregate, 'peak');
  assert.equal(ask('any bikes in the last hour').aggregate, 'presence');
  assert.equal(interpretQuery('first and last bike today', questionContext()).ok, false);
});

test('a part of the day and a clock inside it are one span, the clock refining the part', () => {
  const overnight = ask('most vehicles in the lot overnight, since 10pm?', { location: 'lot' });
  assert.deepEqual([overnight.aggregate, overnight.from, overnight.to], ['peak', ny('22:00', '2026-03-09'), ny('05:00')]);
  const morning = ask('most people this morning from 6');
  assert.deepEqual([morning.from, morning.to], [ny('06:00'), ny('10:14')]);
  assert.equal(ask('most people this morning, since 7am').from, ny('07:00'));
  assert.equal(ask('most vehicles last night after 11', { location: 'lot' }).from, ny('23:00', '2026-03-09'));
  // two times that conflict are still asked back
  for (const q of ['most vehicles overnight, since 10am?', 'most people this morning since 3pm']) {
    const r = interpretQuery(q, questionContext());
    assert.equal(r.ok, false, q);
    if (!r.ok) assert.match(r.reason, /more than one time/, q);
  }
  // one time alone is read as before
  assert.equal(ask('most people since 7am').from, ny('07:00'));
  assert.equal(ask('how many people at 9am this morning').aggregate, 'current');
});
