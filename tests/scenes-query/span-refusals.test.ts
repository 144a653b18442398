import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask, refused, QUESTION_SCENE } from './scene-fixtures.ts';
import { answerQuery } from '../../src/org/scenes/query/query-answerer.ts';

const LOT = { location: 'parking_lot' };

test('a question over a span asked at a moment names what it asked for in plain words', () => {
  // arrivals at a clock moment are read as that minute and asked back when the count did not rise in it
  // (docs/decisions.md, "Before round R: scene questions")
  const arrivals = answerQuery(ask('how many cars pulled in at 2pm?', LOT), [], QUESTION_SCENE, [[]]);
  assert.match(arrivals.ask ?? '', /is a moment, and a count of arrivals needs a span/);
  assert.match(refused('what was the average number of people at 2pm?'), /is a moment, and an average needs a span/);
});
