/**
 * The one spoken-clock reader (src/platform/language/time/spoken-clock.ts), shared by the
 * watch-window and past-range readers: see docs/decisions.md, "One spoken-clock reader".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockText, daytimeHour, findSpokenClocks, readSpokenClock, rewriteSpokenClocks } from '../../src/platform/language/time/spoken-clock.ts';
import { createNormalizer } from '../../src/platform/language/normalize.ts';
import { extractTimeSpec, resolveWatchWindow } from '../../src/platform/language/time/watch-window.ts';
import { findTimePhrase } from '../../src/platform/language/time/past-range.ts';
import { fromWallClock } from '../../src/platform/time/zoned-time.ts';

const words = (s: string) => s.split(' ');
const read = (s: string, minutesTo = false) => {
  const c = findSpokenClocks(words(s), { minutesTo })[0];
  return c && clockText(c);
};

test('spoken clock times read as clock times', () => {
  assert.equal(read('quarter to eleven'), '10:45');
  assert.equal(read('quarter past 6'), '6:15');
  assert.equal(read('half past seven'), '7:30');
  assert.equal(read('half ten'), '10:30');
  assert.equal(read("seven o'clock"), '7:00');
  assert.equal(read("10 o'clock"), '10:00');
  assert.equal(read('ten past six in the morning'), '6:10am');
  assert.equal(read('twenty five past 8'), '8:25');
  assert.equal(read('quarter to eleven tonight'), '10:45pm');
  assert.equal(read('half past four in the afternoon'), '4:30pm');
  assert.equal(read("nine o'clock at night"), '9:00pm');
  // "tonight" says the half of the day but stays a word of its own (it also names the night)
  assert.equal(readSpokenClock(words('quarter to eleven tonight'), 0)?.end, 3);
});

test('amounts and ranges are not clock times', () => {
  assert.equal(read('half an hour'), undefined);
  assert.equal(read('half 2 hours'), undefined);
  assert.equal(read('an hour and three quarters'), undefined);
  // "ten to seven" only where one time is likely; "from 10 to 6" is a range
  assert.equal(read('ten to seven'), undefined);
  assert.equal(read('ten to seven', true), '6:50');
  assert.equal(read('10 to 6', true), undefined);
  assert.equal(clockText(findSpokenClocks(words('at ten to seven'))[0]), '6:50');
  assert.equal(findSpokenClocks(words('from ten to seven')).length, 0);
});

test('rewriting plain text keeps every offset', () => {
  const text = 'how many people at quarter past 9 yesterday';
  const r = rewriteSpokenClocks(text);
  assert.equal(r.text.length, text.length);
  assert.match(r.text, /at 9:15 +yesterday/);
  assert.deepEqual(r.spans, [[text.indexOf('quarter'), text.indexOf(' yesterday')]]);
});

test('a bare hour on a day that is not a night is its daytime hour', () => {
  assert.deepEqual([6, 7, 9, 11, 12, 1, 3].map(daytimeHour), [18, 7, 9, 11, 12, 13, 15]);
  // past-range: "at 9 yesterday" is 09:00, not 21:00
  const now = fromWallClock({ year: 2026, month: 3, day: 10, hour: 10, minute: 0 }, 'America/New_York');
  const p = findTimePhrase('how many people at 9 yesterday', { now, timeZone: 'America/New_York' }).phrase;
  assert.equal(p.kind, 'point');
  assert.equal(p.kind === 'point' && p.at, fromWallClock({ year: 2026, month: 3, day: 9, hour: 9, minute: 0 }, 'America/New_York'));
});

test('the watch-window reader uses it: whole windows said in words', () => {
  const normalize = createNormalizer([]);
  const zone = 'Europe/Dublin';
  const now = fromWallClock({ year: 2026, month: 12, day: 3, hour: 15, minute: 10 }, zone);
  const ctx = { now, timeZone: zone, location: null };
  const at = (d: number, h: number, m = 0) => fromWallClock({ year: 2026, month: 12, day: d, hour: h, minute: m }, zone);
  const window = (s: string) => {
    const tokens = normalize(s, []).tokens;
    const w = resolveWatchWindow(extractTimeSpec(tokens, 0, tokens.length, ctx), ctx);
    return [w.startsAt, w.endsAt];
  };
  assert.deepEqual(window('watch the hall from quarter to eleven tonight until ten past six in the morning'), [at(3, 22, 45), at(4, 6, 10)]);
  assert.deepEqual(window('watch the door from Thursday the 10th at 6am until Monday the 14th at 8pm'), [at(10, 6), at(14, 20)]);
  assert.deepEqual(window("watch the garage from ten o'clock on Saturday night until nine o'clock on Sunday morning"), [at(5, 22), at(6, 9)]);
  assert.deepEqual(window('watch the lane tonight til quarter past 6'), [at(3, 18), at(4, 6, 15)]);
  assert.deepEqual(window('watch the lane from half ten tonight till seven tomorrow morning'), [at(3, 22, 30), at(4, 7)]);
  assert.deepEqual(window('watch the garden for the next hour and three quarters'), [now, now + 105 * 60_000]);
  assert.deepEqual(window('watch the garage from 9am on the 10th to 6pm on the 14th'), [at(10, 9), at(14, 18)]);
  // chrono's range comes back earliest first; the order said is kept ("from 9 until midnight" at 15:10 is tonight's 9)
  assert.deepEqual(window('watch the gate from 9 til midnight'), [at(3, 21), at(4, 0)]);
});
