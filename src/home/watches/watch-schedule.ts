import { addDays, countDaysBetween, fromWallClock, isWeekend, toLocalDate, toWallClock, type WallClock } from '../../platform/time/index.ts';
import type { KnownWatch } from '../directory/index.ts';
import { getSunTime, type SunEvent } from '../../platform/language/index.ts';

const DAY = 86_400_000;

export interface HomePlace {
  timeZone: string;
  lat: number | null;
  lon: number | null;
}

interface Occurrence {
  startsAt: number;
  endsAt: number;
  allowed: boolean;
}

/** "every night, sunset to sunrise" → start follows sunset, end follows sunrise. */
function readSunAnchors(windowText: string): { start?: SunEvent; end?: SunEvent } {
  const [startPart, endPart] = windowText.toLowerCase().split(/\s+to\s+/);
  const find = (s: string | undefined) => (s ? (/\b(sunset|sunrise|dusk|dawn)\b/.exec(s)?.[1] as SunEvent | undefined) : undefined);
  return { start: find(startPart), end: find(endPart) };
}

function localDate(ms: number, timeZone: string): WallClock {
  return { ...toLocalDate(ms, timeZone), hour: 0, minute: 0 };
}

/**
 * When a watch is under observation. A one-off watch: [starts_at, ends_at). A
 * recurring one repeats its first window every day (or weekday, or weekend day) at the same local
 * clock times, except that a window whose words name sunset/sunrise/dusk/dawn follows the sun of
 * each day at the home's coordinates, as people mean "every night from sunset to sunrise".
 * Occurrences are memoised per day, so the per-detection check is arithmetic and a map lookup.
 */
export class WatchSchedule {
  private readonly occurrences = new Map<number, Occurrence>();
  private readonly sun: { start?: SunEvent; end?: SunEvent };

  constructor(
    private readonly watch: Pick<KnownWatch, 'startsAt' | 'endsAt' | 'recurrence' | 'windowText'>,
    private readonly place: HomePlace,
  ) {
    this.sun = place.lat !== null && place.lon !== null ? readSunAnchors(watch.windowText) : {};
  }

  contains(at: number): boolean {
    const w = this.watch;
    if (at < w.startsAt) return false;
    if (w.recurrence === 'none') return at < w.endsAt;
    const k = Math.floor((at - w.startsAt) / DAY);
    for (const day of [k - 1, k]) {
      if (day < 0) continue;
      const o = this.occurrence(day);
      if (o.allowed && at >= o.startsAt && at < o.endsAt) return true;
    }
    return false;
  }

  /** The window that is open at `at`, or the next one to open (null when none will). */
  currentOrNext(at: number): { startsAt: number; endsAt: number } | null {
    const w = this.watch;
    if (w.recurrence === 'none') return at < w.endsAt ? { startsAt: w.startsAt, endsAt: w.endsAt } : null;
    const first = Math.max(0, Math.floor((at - w.startsAt) / DAY) - 1);
    for (let day = first; day < first + 9; day++) {
      const o = this.occurrence(day);
      if (o.allowed && o.endsAt > at) return { startsAt: o.startsAt, endsAt: o.endsAt };
    }
    return null;
  }

  private occurrence(day: number): Occurrence {
    let o = this.occurrences.get(day);
    if (!o) {
      if (this.occurrences.size > 16) this.occurrences.clear();
      o = this.computeOccurrence(day);
      this.occurrences.set(day, o);
    }
    return o;
  }

  private computeOccurrence(day: number): Occurrence {
    const { timeZone } = this.place;
    const w = this.watch;
    const firstDay = localDate(w.startsAt, timeZone);
    const date = addDays(firstDay, day);
    const allowed = this.isAllowedDay(date);
    if (day === 0) return { startsAt: w.startsAt, endsAt: w.endsAt, allowed: allowed || w.recurrence === 'none' };
    const startClock = toWallClock(w.startsAt, timeZone);
    const endClock = toWallClock(w.endsAt, timeZone);
    const startsAt = this.sun.start
      ? this.getSunTime(this.sun.start, date)
      : fromWallClock({ ...date, hour: startClock.hour, minute: startClock.minute }, timeZone);
    let endsAt: number;
    if (this.sun.end) {
      endsAt = this.getSunTime(this.sun.end, date);
      if (endsAt <= startsAt) endsAt = this.getSunTime(this.sun.end, addDays(date, 1));
    } else {
      const endDate = addDays(date, countDaysBetween(firstDay, localDate(w.endsAt, timeZone)));
      endsAt = fromWallClock({ ...endDate, hour: endClock.hour, minute: endClock.minute }, timeZone);
    }
    if (endsAt <= startsAt) endsAt += DAY;
    return { startsAt, endsAt, allowed };
  }

  private isAllowedDay(date: WallClock): boolean {
    if (this.watch.recurrence === 'weekdays') return !isWeekend(date);
    if (this.watch.recurrence === 'weekends') return isWeekend(date);
    return true;
  }

  /** The same sun minute the agent states when it plans the watch (src/platform/language/time/primitives.ts). */
  private getSunTime(event: SunEvent, date: WallClock): number {
    const location = { lat: this.place.lat!, lon: this.place.lon! };
    return getSunTime(event, { year: date.year, month: date.month, day: date.day }, { now: 0, timeZone: this.place.timeZone, location });
  }
}
