import { fromWallMs, getDateOfWallMs, getWallMsOfDate, getZoneOffset, isValidTimeZone, toLocalDate, type LocalDate } from '../../platform/time/index.ts';

/**
 * The sandbox's view of one IANA time zone: activity follows the local day (a lobby is busy at
 * 09:00 local, not 09:00 UTC), and generation asks for the local hour of every sample, so these
 * classes bind a zone and skip repeated lookups; the conversions themselves are lib/zoned-time's.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export class LocalTime {
  readonly timeZone: string;

  /** Throws RangeError for a time zone Intl does not know. */
  constructor(timeZone: string) {
    if (!isValidTimeZone(timeZone)) throw new RangeError(`unknown time zone "${timeZone}"`);
    this.timeZone = timeZone;
  }

  /** Milliseconds to add to a UTC instant to get the local wall clock at that instant. */
  offsetAt(ms: number): number {
    return getZoneOffset(ms, this.timeZone);
  }

  /** The local calendar date at an instant. */
  dateAt(ms: number): LocalDate {
    return toLocalDate(ms, this.timeZone);
  }

  /**
   * The UTC instant (whole ms) at which the local clock reads `hourOfDay` (fractional hours, may
   * exceed 24) on `date`; skipped and repeated local times resolve as lib/zoned-time's fromWallMs.
   */
  instantOf(date: LocalDate, hourOfDay: number): number {
    return Math.round(fromWallMs(getWallMsOfDate(date) + hourOfDay * HOUR_MS, this.timeZone));
  }
}

/**
 * Local-time lookups for one span of time (a generation bucket). Offsets only change at DST
 * transitions, at most once within an hour, so when both ends agree the whole span shares one
 * offset and every sample in between is plain arithmetic.
 */
export class LocalSpan {
  private readonly offset: number | null;

  constructor(
    readonly time: LocalTime,
    startMs: number,
    endMs: number,
  ) {
    const a = time.offsetAt(startMs);
    const b = time.offsetAt(endMs - 1);
    this.offset = a === b ? a : null;
  }

  private wallAt(ms: number): number {
    return ms + (this.offset ?? this.time.offsetAt(ms));
  }

  /** Local time of day in fractional hours, 0 <= h < 24. */
  hourOfDayAt(ms: number): number {
    const wall = this.wallAt(ms);
    return (((wall % DAY_MS) + DAY_MS) % DAY_MS) / HOUR_MS;
  }

  dateAt(ms: number): LocalDate {
    return getDateOfWallMs(this.wallAt(ms));
  }
}
