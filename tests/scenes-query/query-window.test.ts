import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWindow } from '../../src/org/scenes/query/query.ts';

test('parseWindow turns s/m/h/d durations into milliseconds', () => {
  const good: Array<[string, number]> = [
    ['30s', 30_000],
    ['1m', 60_000],
    ['15m', 900_000],
    ['90m', 5_400_000],
    ['2h', 7_200_000],
    ['7d', 604_800_000],
    ['30d', 2_592_000_000],
    ['720h', 2_592_000_000],
  ];
  for (const [input, ms] of good) assert.equal(parseWindow(input), ms, input);
});

test('parseWindow rejects zero, negatives, missing or other units, junk and anything over 30 days', () => {
  const bad = [
    '0m',
    '0s',
    '-5m',
    '15',
    'm',
    '',
    ' 15m',
    '15m ',
    '15 m',
    '1.5h',
    '15M',
    '15min',
    '2w',
    '1y',
    '31d',
    '721h',
    '43201m',
    '99999999999m',
    'abc',
    '15m30s',
    '+15m',
    '1e3s',
  ];
  for (const input of bad) assert.equal(parseWindow(input), null, JSON.stringify(input));
  assert.equal(parseWindow(undefined as unknown as string), null);
  assert.equal(parseWindow(15 as unknown as string), null);
});
