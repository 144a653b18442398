/**
 * Round H time grammar: noon and midnight as the two ends of a range, and bare-hour ranges whose
 * am/pm is open (asked about) or settled by the words around them. See docs/decisions.md, "Round H: the time grammar".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNormalizer } from '../../src/platform/language/normalize.ts';
import { extractTimeSpec, findWindowConflict, resolveWatchWindow } from '../../src/platform/language/time/watch-window.ts';
import { formatLocal } from '../../src/platform/time/zoned-time.ts';

const normalize = createNormalizer([]);
const LONDON = { timeZone: 'Europe/London', location: { lat: 51.5, lon: -0.12 } };
const FRIDAY_1420 = Date.parse('2026-12-04T14:20:00Z');

function read(message: string) {
  const ctx = { ...LONDON, now: FRIDAY_1420 };
  const { tokens } = normalize(message, []);
  const spec = extractTimeSpec(tokens, 0, tokens.length, ctx);
  const w = resolveWatchWindow(spec, ctx);
  return { from: formatLocal(w.startsAt, ctx.timeZone), to: formatLocal(w.endsAt, ctx.timeZone), conflict: findWindowConflict(spec, w, ctx) };
}

test('noon and midnight keep the order said, whichever comes first and wherever the day is', () => {
  for (const m of [
    'watch the garage from noon tomorrow till midnight',
    'watch the garage tomorrow from noon till midnight',
    'from noon tomorrow until midnight watch the shed',
  ]) {
    const w = read(m);
    assert.deepEqual([w.from, w.to], ['2026-12-05T12:00', '2026-12-06T00:00'], m);
  }
  const w = read('watch the shed tomorrow from midnight to noon');
  assert.deepEqual([w.from, w.to], ['2026-12-05T00:00', '2026-12-05T12:00']);
});

test('two bare hours crossing noon or midnight, the night reading ending in the small hours, are asked about with both readings', () => {
  for (const m of ['watch the drive from 10 to 2', 'watch the garage from 8 till 3', 'watch the porch from 9 until 1', 'watch the shed between 10 and 4']) {
    const w = read(m);
    assert.match(w.conflict ?? '', /could be \d\d:00 to \d\d:00, or \d\d:00 to \d\d:00 overnight/, m);
  }
  assert.match(read('watch the drive from 10 to 2').conflict ?? '', /10:00 to 14:00, or 22:00 to 02:00/);
});

test('a day said only after the end does not settle it: the whole window that day, or only its end', () => {
  for (const m of ['watch the garage from 8 till 6 tomorrow', 'watch the drive from 10 to 2 on saturday']) assert.ok(read(m).conflict, m);
});

test('a night reading until the morning, a day said before the range, a night word or am/pm settles the halves of the day', () => {
  const cases: [string, string, string][] = [
    ['watch the back door tomorrow from 8 till 6', '2026-12-05T08:00', '2026-12-05T18:00'],
    ['watch the garage tonight from 10 to 6', '2026-12-04T22:00', '2026-12-05T06:00'],
    ['watch the garage from 10 to 6 tonight', '2026-12-04T22:00', '2026-12-05T06:00'],
    ['watch the garage from 10pm to 2', '2026-12-04T22:00', '2026-12-05T02:00'],
    ['watch the office from 11 to 7', '2026-12-04T23:00', '2026-12-05T07:00'],
    ['watch the basement from 10 till 6', '2026-12-04T22:00', '2026-12-05T06:00'],
    ['watch the garage from 8 till 6', '2026-12-04T20:00', '2026-12-05T06:00'],
  ];
  for (const [m, from, to] of cases) {
    const w = read(m);
    assert.equal(w.conflict, undefined, m);
    assert.deepEqual([w.from, w.to], [from, to], m);
  }
});
