import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sayAgo } from '../../src/platform/time/index.ts';

const MIN = 60_000;

test('a reading age reads the same on every surface: just now, minutes to two hours, hours to two days, then days', () => {
  assert.equal(sayAgo(20_000), 'just now');
  assert.equal(sayAgo(-5 * MIN), 'just now', 'a reading stamped a little ahead of the clock is not in the future');
  assert.equal(sayAgo(MIN), '1 minute ago');
  assert.equal(sayAgo(74 * MIN), '74 minutes ago');
  assert.equal(sayAgo(150 * MIN), '3 hours ago');
  assert.equal(sayAgo(22 * 60 * MIN), '22 hours ago');
  assert.equal(sayAgo(60 * 60 * MIN), '3 days ago');
});
