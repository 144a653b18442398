/**
 * "watch the porch tonight" in Tromsø in June: where the sun does not set (or does not rise) around now there is no
 * sunset or sunrise for "tonight" to run between, so the hours are asked, never filled with a fixed clock
 * (docs/decisions.md, "Round R: places"). Explicit hours ("from 10pm until 7am") are acted on as anywhere.
 */
import SunCalc from 'suncalc';
import type { TimeSpec } from '../../platform/language/index.ts';
import type { HouseholdContext } from './context.ts';

const DAY_MS = 86_400_000;

/** True when the window leans on a sunset or sunrise: a sun word, or a night with its start or end left to the sun. */
function leansOnSun(time: TimeSpec): boolean {
  if (time.anchors.some((a) => a.kind === 'sun')) return true;
  if (!time.night) return false;
  const start = time.anchors.some((a) => a.role === 'start' || a.role === 'point');
  const end = time.anchors.some((a) => a.role === 'end') || time.durationMs !== undefined;
  return !start || !end;
}

/** No sunset or no sunrise at the home today or in the next two days (polar day or polar night). */
function hasNoSunEvents(ctx: HouseholdContext): boolean {
  if (!ctx.location) return false;
  for (let d = 0; d < 3; d++) {
    const t = SunCalc.getTimes(new Date(ctx.now + d * DAY_MS), ctx.location.lat, ctx.location.lon);
    if (!Number.isFinite(t.sunset.getTime()) || !Number.isFinite(t.sunrise.getTime())) return true;
  }
  return false;
}

/** The question for a window set by the sun where the sun neither sets nor rises these days, or undefined. */
export function askPolarSunWindow(time: TimeSpec, ctx: HouseholdContext): string | undefined {
  if (!leansOnSun(time) || !hasNoSunEvents(ctx)) return undefined;
  const where = ctx.location?.city ? ` in ${ctx.location.city}` : '';
  return `There's no sunset or sunrise${where} at this time of year, so I can't run the watch from dusk to dawn. Which hours should I watch, for example "from 10pm until 7am"? I haven't changed anything yet.`;
}
