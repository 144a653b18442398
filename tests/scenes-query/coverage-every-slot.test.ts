import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interpretQuery, type QueryContext } from '../../src/org/scenes/query/query.ts';
import { MIN, NOW, TZ } from './scene-fixtures.ts';

/**
 * The coverage rule of the scene interpreter (docs/decisions.md, "Scene questions: coverage
 * before an answer"), for every kind of question the interpreter answers: a word it does not
 * know, planted into every slot of the question (before, between and after every word), is never
 * answered around; the reply asks (422 at the route, tests/scenes-query/route-coverage-freshness)
 * and names the word. Three kinds of unknown word: one that is no word at all, a real English
 * adjective, and a real English noun (which, after "in the", reads as another place).
 */

function ctx(location: string): QueryContext {
  return { now: NOW, windowMs: 60 * MIN, timeZone: TZ, location };
}

/** One question of each kind the interpreter answers, each understood as planted-free. */
const QUESTIONS: Array<[question: string, location: string, aggregate: string]> = [
  ['how many people are in the lobby right now', 'lobby', 'current'],
  ['what was the peak number of people since 9am', 'lobby', 'peak'],
  ['what was the average number of people in the last hour', 'lobby', 'average'],
  ['what was the quietest it got today', 'lobby', 'minimum'],
  ['how many people arrived this morning', 'lobby', 'arrivals'],
  ['is anyone in the lobby', 'lobby', 'presence'],
  ['were any vehicles here between 2 and 3am', 'parking_lot', 'presence'],
  ['is the lobby empty right now', 'lobby', 'presence'],
  ['how crowded is it', 'lobby', 'current'],
  ['anything unusual in the last 30 minutes', 'lobby', 'list'],
  ['any unrecognized people today', 'lobby', 'list'],
  ['has anyone been loitering', 'lobby', 'list'],
  ['is it busier than usual', 'lobby', 'vs_usual'],
  ['has the crowd been growing since 9am', 'lobby', 'trend'],
  ['compare this morning with yesterday morning', 'lobby', 'compare'],
  ['were there more than 5 people at any point in the last hour', 'lobby', 'threshold'],
  ['how many people left since 9am', 'lobby', 'departures'],
  ['when did the last car leave', 'parking_lot', 'last_departure'],
  ['when was the last car seen this morning', 'parking_lot', 'last_seen'],
  ['when was the first car seen today', 'parking_lot', 'first_seen'],
  ['how long has that guy been hanging around', 'lobby', 'dwell'],
  ['how long did the intruder stay', 'lobby', 'dwell'],
  ['what happened this morning', 'lobby', 'summary'],
  ['any dogs in the lobby since 9am', 'lobby', 'presence'],
  ['how many cars came in today', 'parking_lot', 'arrivals'],
];

const UNKNOWN = ['flurbish', 'purple', 'umbrella', 'motor', 'carts', 'twice', 'except', 'weekly'];

test('coverage: each question kind is understood as written (so a refusal below is the planted word)', () => {
  for (const [q, location, aggregate] of QUESTIONS) {
    const result = interpretQuery(q, ctx(location));
    assert.ok(result.ok, `${q}: refused (${result.ok ? '' : result.reason})`);
    assert.equal(result.interpretation.aggregate, aggregate, q);
  }
});

test('coverage: an unknown word planted into every slot of every kind of question is asked about, naming the word', () => {
  let planted = 0;
  for (const [q, location] of QUESTIONS) {
    const words = q.split(' ');
    for (const unknown of UNKNOWN) {
      for (let i = 0; i <= words.length; i++) {
        const text = [...words.slice(0, i), unknown, ...words.slice(i)].join(' ');
        const result = interpretQuery(text, ctx(location));
        assert.equal(result.ok, false, `${text} was answered as ${result.ok ? result.interpretation.summary : ''}`);
        if (!result.ok) {
          assert.match(result.reason, new RegExp(`"${unknown}"`), `${text}: ${result.reason}`);
          assert.ok(result.examples.length > 0, `${text}: no examples`);
        }
        planted += 1;
      }
    }
  }
  assert.ok(planted > 500, `only ${planted} planted questions`);
});
