import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeTime } from 'ulid';
import { hasPrefix, newId } from '../../src/platform/lib/ids.ts';

// Ids sort by time (docs/design.md "IDs"): lists page by id and the audit trail orders by it, so an id
// made later must never sort before one made earlier, even for a detection stamped in the past.

test('an id carries its time as a standard ULID and its prefix', () => {
  const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123);
  const id = newId('det', at);
  assert.ok(hasPrefix(id, 'det'), id);
  assert.match(id, /^det_[0-9a-hjkmnp-tv-z]{26}$/);
  assert.equal(decodeTime(id.slice(4).toUpperCase()), at);
});

test('ids made in the same millisecond, or for an earlier time, still sort after the last one', () => {
  const at = Date.UTC(2030, 0, 1);
  const ids = [newId('aud', at), newId('aud', at), newId('aud', at - 60_000), newId('aud', at), newId('aud', at + 1)];
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i - 1] < ids[i], `${ids[i - 1]} < ${ids[i]}`);
  // an earlier time reuses the last time rather than going back
  assert.equal(decodeTime(ids[2].slice(4).toUpperCase()), at);
  assert.equal(decodeTime(ids[4].slice(4).toUpperCase()), at + 1);
});

test('the increment carries across base32 digits and ids stay unique over many in one millisecond', () => {
  const at = Date.UTC(2031, 0, 1);
  const seen = new Set<string>();
  let prev = '';
  for (let i = 0; i < 50_000; i++) {
    const id = newId('det', at);
    assert.ok(id > prev);
    seen.add(id);
    prev = id;
  }
  assert.equal(seen.size, 50_000);
});

test('a time outside what a ULID can hold is refused, not wrapped', () => {
  assert.throws(() => newId('det', 2 ** 48), RangeError);
  assert.throws(() => newId('det', Date.UTC(2040, 0, 1) + 0.5), RangeError);
});
