/**
 * Round I time grammar: amounts said in words ("ninety minutes", "a hundred and twenty"), vague
 * counts that say no number ("a few nights"), a time said as minutes to midnight or noon, "from
 * ten to midnight" (a range or one clock time), and open am/pm ranges said with minutes. See
 * docs/decisions.md, "Round I: the time grammar". Phrasings are our own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createNormalizer } from '../../src/platform/language/normalize.ts';
import { extractTimeSpec, findWindowConflict, resolveWatchWindow } from '../../src/platform/language/time/watch-window.ts';
import { readNumberWords } from '../../src/platform/language/time/number-words.ts';
import { readSpokenClock } from '../../src/platform/language/time/spoken-clock.ts';
import { formatLocal } from '../../src/platform/time/zoned-time.ts';

const normalize = createNormalizer([]);
const LONDON = { timeZone: 'Europe/London', location: { lat: 51.5, lon: -0.12 } };
// Friday 4 December 2026, 14:20 in London
const ctx = { ...LONDON, now: Date.parse('2026-12-04T14:20:00Z') };

function read(message: string) {
  const { tokens } = normalize(message, []);
  const spec = extractTimeSpec(tokens, 0, tokens.length, ctx);
  const w = resolveWatchWindow(spec, ctx);
  return { spec, from: formatLocal(w.startsAt, ctx.timeZone), to: formatLocal(w.endsAt, ctx.timeZone), conflict: findWindowConflict(spec, w, ctx) };
}

test('whole numbers said in words, compound ones included', () => {
  const cases: [string, number, number][] = [
    ['ninety', 90, 1],
    ['forty five', 45, 2],
    ['twenty five', 25, 2],
    ['a hundred and twenty', 120, 4],
    ['one hundred fifty', 150, 3],
    ['two hundred', 200, 2],
    ['seventeen', 17, 1],
  ];
  for (const [words, value, length] of cases) assert.deepEqual(readNumberWords(words.split(' '), 0), { value, length }, words);
  assert.equal(readNumberWords(['a', 'few'], 0), undefined);
  assert.equal(readNumberWords(['several'], 0), undefined);
});

test('durations counted in words are read whole, never a part of them', () => {
  const cases: [string, number][] = [
    ['watch the shed for ninety minutes', 90],
    ['keep an eye on the drive for forty-five minutes', 45],
    ['watch the porch for a hundred and twenty minutes', 120],
    ['watch the garden for twenty five mins', 25],
    ['watch the hall for the next seventy minutes', 70],
    ['watch the hall for fifteen minutes', 15],
    ['watch the shed for thirty five minutes', 35],
  ];
  for (const [m, minutes] of cases) assert.equal(read(m).spec.durationMs, minutes * 60_000, m);
  assert.equal(read('watch the shed for two hours and forty minutes').spec.durationMs, 160 * 60_000);
});

test('a few, several and some say no count: nothing is picked, the question asks for one', () => {
  for (const m of [
    'keep an eye on the shed for a few nights',
    'watch the garage over the next several nights',
    'watch the porch for some hours',
    'watch the drive for a few more hours',
    'watch the garden for several days',
    'watch the hall in a few minutes',
  ]) {
    const { spec } = read(m);
    assert.match(spec.vagueCount ?? '', /^How many (nights|hours|days|minutes) do you mean/, m);
    assert.equal(spec.durationMs, undefined, m);
    assert.equal(spec.nights, undefined, m);
  }
  // "a couple of" is two, as before; a look back is another reader's
  assert.equal(read('watch the shed for a couple of nights').spec.nights, 2);
  assert.equal(read('watch the shed for a couple of nights').spec.vagueCount, undefined);
  assert.equal(read('what happened in the last few hours').spec.vagueCount, undefined);
});

test('minutes to or past midnight and noon are clock times of their own half of the day', () => {
  const at = (words: string, minutesTo = true) => {
    const c = readSpokenClock(words.split(' '), 0, { minutesTo });
    return c && `${c.hour}:${String(c.minute).padStart(2, '0')}`;
  };
  assert.equal(at('ten to midnight'), '23:50');
  assert.equal(at('quarter to midnight', false), '23:45');
  assert.equal(at('quarter past midnight'), '0:15');
  assert.equal(at('twenty past noon'), '12:20');
  assert.equal(at('five to noon'), '11:55');
  // without a word that makes one time likely, "ten to midnight" may be a range (below)
  assert.equal(at('ten to midnight', false), undefined);
  assert.equal(read('watch the shed at ten to midnight').from, '2026-12-04T23:50');
  assert.equal(read('watch the shed until quarter past midnight').to, '2026-12-05T00:15');
});

test('"from ten to midnight" is a range or one clock time: asked, saying both', () => {
  for (const m of [
    'watch the garage from ten to midnight',
    'watch the drive from five to midnight',
    'watch the porch from ten to seven',
    'watch the hall from ten to noon',
  ]) {
    assert.match(read(m).conflict ?? '', /could be the clock time \d{1,2}:\d\d .*, or the range from \w+ until \w+/, m);
  }
  // digits are a range; "till" is no minutes-to; a second end makes the first one time
  for (const m of ['watch the garage from 10 to midnight', 'watch the garage from ten till midnight', 'watch the garage between ten and midnight']) {
    const w = read(m);
    assert.equal(w.conflict, undefined, m);
    assert.deepEqual([w.from, w.to], ['2026-12-04T22:00', '2026-12-05T00:00'], m);
  }
  const w = read('watch the porch from ten to seven until nine');
  assert.deepEqual([w.conflict, w.from, w.to], [undefined, '2026-12-04T18:50', '2026-12-04T21:00']);
});

test('an open am/pm range said with minutes is asked about like one said in whole hours', () => {
  for (const m of [
    'watch the flat door from quarter to ten until half six tomorrow',
    'watch the shed from 9:45 till 6:30 tomorrow',
    'watch the drive from half eight to 3',
    'watch the porch from 10.30 until 2',
  ]) {
    assert.match(read(m).conflict ?? '', /could be \d\d:\d\d to \d\d:\d\d.*, or \d\d:\d\d to \d\d:\d\d overnight/, m);
  }
  assert.match(read('watch the shed from quarter to ten until half six tomorrow').conflict ?? '', /09:45 to 18:30 tomorrow, or 21:45 to 06:30 overnight/);
  // settled as with whole hours: a night until the morning, a day said before the range
  const cases: [string, string, string][] = [
    ['watch the garage from half nine till six', '2026-12-04T21:30', '2026-12-05T06:00'],
    ['watch the garage from quarter to ten until half six', '2026-12-04T21:45', '2026-12-05T06:30'],
    ['watch the garage tomorrow from half nine till six', '2026-12-05T09:30', '2026-12-05T18:00'],
    ['watch the garage from quarter past ten to quarter to five', '2026-12-04T22:15', '2026-12-05T04:45'],
  ];
  for (const [m, from, to] of cases) {
    const w = read(m);
    assert.equal(w.conflict, undefined, m);
    assert.deepEqual([w.from, w.to], [from, to], m);
  }
});
