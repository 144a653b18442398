/**
 * The Query request's `window` (openapi.json, operation `queryScene`): an integer followed by m (minutes)
 * is the documented form; we also accept s, h and d, which is
 * what users of the same notation (Prometheus, Grafana) expect, and cap a window at 30 days so a
 * query never scans unbounded history.
 */

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
type WindowUnit = keyof typeof UNIT_MS;

export const MAX_WINDOW_MS = 30 * UNIT_MS.d;

const WINDOW_PATTERN = /^(\d{1,9})([smhd])$/;

/** '30s' | '15m' | '2h' | '7d' → milliseconds; anything else (0, negative, missing unit, other units, > 30d) → null */
export function parseWindow(window: string): number | null {
  if (typeof window !== 'string') return null;
  const match = WINDOW_PATTERN.exec(window);
  if (!match) return null;
  const amount = Number(match[1]);
  const ms = amount * UNIT_MS[match[2] as WindowUnit];
  if (amount <= 0 || ms > MAX_WINDOW_MS) return null;
  return ms;
}

const DURATION_UNITS: Array<[ms: number, singular: string]> = [
  [UNIT_MS.d, 'day'],
  [UNIT_MS.h, 'hour'],
  [UNIT_MS.m, 'minute'],
  [UNIT_MS.s, 'second'],
];

/** 3_600_000 → "hour", 900_000 → "15 minutes", 5_400_000 → "90 minutes": reads as "the last …". */
export function describeDuration(ms: number): string {
  for (const [unitMs, singular] of DURATION_UNITS) {
    if (ms >= unitMs && ms % unitMs === 0) {
      const n = ms / unitMs;
      return n === 1 ? singular : `${n} ${singular}s`;
    }
  }
  const seconds = Math.max(1, Math.round(ms / 1000));
  return seconds === 1 ? 'second' : `${seconds} seconds`;
}
