import { DAY_PARTS } from './primitives.ts';
import { addZonedDays, atZonedTime, formatMoment, startOfZonedDay, toWallClock } from '../../time/index.ts';

/**
 * "Overnight" (and "all night", "through the night") in a question about the past: the night
 * part of the day, DAY_PARTS.night (21:00 to 05:00), not the evening before it. "Last night" keeps
 * the evening (18:00 on, as the past-range reader reads it): people say "last night" of the
 * evening too, and "overnight" of the hours when a place is shut. See docs/decisions.md, "Scene
 * questions: round C".
 *
 * The night just past, or the one in progress (then up to `now`). Asked in the evening before the
 * night began (at 19:00), it is the night before.
 */
export function overnightSpan(now: number, timeZone: string): { from: number; to: number; label: string } {
  const { start, end } = DAY_PARTS.night;
  const hour = toWallClock(now, timeZone).hour;
  const today = startOfZonedDay(now, timeZone);
  // the evening the night began: today once it has started, otherwise yesterday
  const base = hour >= start ? today : addZonedDays(today, -1, timeZone);
  const from = atZonedTime(base, start, 0, timeZone);
  const to = Math.min(atZonedTime(addZonedDays(base, Math.floor(end / 24), timeZone), end % 24, 0, timeZone), now);
  return { from, to, label: `overnight (${formatMoment(from, timeZone, now)} to ${formatMoment(to, timeZone, now)})` };
}
