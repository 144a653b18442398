/**
 * Local wall-clock time in an IANA time zone, via Intl (no tz database of our own). The sandbox
 * needs it because activity follows the local day: a lobby is busy at 09:00 local, not 09:00 UTC.
 */

export interface LocalDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function getFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // era makes years before 1 CE come back unambiguous; h23 avoids the "24" hour of some locales
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Epoch ms of 00:00 "UTC" on a calendar date; works for every year, unlike Date.UTC (0..99 -> 19xx). */
function wallMsOfDate(date: LocalDate): number {
  const d = new Date(0);
  d.setUTCFullYear(date.year, date.month - 1, date.day);
  return d.getTime();
}

function dateOfWallMs(wallMs: number): LocalDate {
  const d = new Date(wallMs);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return dateOfWallMs(wallMsOfDate(date) + days * DAY_MS);
}

/** "2026-11-21": stable key for seeding a day's plan. */
export function formatDateKey(date: LocalDate): string {
  return `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** Saturday or Sunday. */
export function isWeekend(date: LocalDate): boolean {
  const weekday = new Date(wallMsOfDate(date)).getUTCDay();
  return weekday === 0 || weekday === 6;
}

export class LocalTime {
  readonly timeZone: string;
  private readonly formatter: Intl.DateTimeFormat;

  /** Throws RangeError for a time zone Intl does not know. */
  constructor(timeZone: string) {
    this.timeZone = timeZone;
    this.formatter = getFormatter(timeZone);
  }

  /** Milliseconds to add to a UTC instant to get the local wall clock at that instant. */
  offsetAt(ms: number): number {
    const wholeSecond = ms - (((ms % 1000) + 1000) % 1000);
    const fields: Record<string, string> = {};
    for (const p of this.formatter.formatToParts(wholeSecond)) fields[p.type] = p.value;
    const yearOfEra = Number(fields.year);
    const year = fields.era === 'BC' || fields.era === 'B' ? 1 - yearOfEra : yearOfEra;
    const wall =
      wallMsOfDate({ year, month: Number(fields.month), day: Number(fields.day) }) +
      Number(fields.hour) * HOUR_MS +
      Number(fields.minute) * 60_000 +
      Number(fields.second) * 1000;
    return wall - wholeSecond;
  }

  /** The local calendar date at an instant. */
  dateAt(ms: number): LocalDate {
    return dateOfWallMs(ms + this.offsetAt(ms));
  }

  /**
   * The UTC instant at which the local clock reads `hourOfDay` (fractional hours, may exceed 24)
   * on `date`. In a spring-forward gap it lands just after the gap; in a fall-back overlap it
   * picks one of the two instants — either is fine for simulated activity.
   */
  instantOf(date: LocalDate, hourOfDay: number): number {
    const wall = wallMsOfDate(date) + hourOfDay * HOUR_MS;
    const firstGuess = wall - this.offsetAt(wall);
    const offset = this.offsetAt(firstGuess);
    return Math.round(wall - offset);
  }
}

/**
 * Local-time lookups for one span of time (a generation bucket). Offsets only change at DST
 * transitions, at most once within an hour, so when both ends agree the whole span shares one
 * offset and we skip Intl for every sample in between.
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
    return dateOfWallMs(this.wallAt(ms));
  }
}
