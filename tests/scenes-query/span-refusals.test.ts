import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refused } from './scene-fixtures.ts';

const LOT = { location: 'parking_lot' };

test('a question over a span asked at a moment names what it asked for in plain words', () => {
  assert.match(refused('how many cars pulled in at 2pm?', LOT), /is a moment, and a count of arrivals needs a span/);
  assert.match(refused('what was the average number of people at 2pm?'), /is a moment, and an average needs a span/);
});
