/**
 * The watches a plural reference to watches means ("stop them", "cancel both", "stop those") in a stand-down: the
 * active watches the conversation's last run of watch-making turns made or changed ("watch the shed from 9pm" — "and
 * the garage, same times" — "stop both"). A count that does not fit is no guess: undefined, and the caller asks
 * (docs/decisions.md, "Before round S: follow-ups").
 */
import type { HouseholdContext } from './context.ts';

const WATCH_ACTIONS = new Set(['watch.created', 'watch.updated']);

/** Ids of the active watches the last run of consecutive turns that made or changed watches made or changed, most recent last. */
export function findWatchesLastMade(ctx: HouseholdContext): string[] {
  const turns = ctx.conversation?.turns ?? [];
  const active = new Set(ctx.watches.map((w) => w.id));
  const ids: string[] = [];
  let started = false;
  for (let t = turns.length - 1; t >= 0; t--) {
    const made = turns[t].actions.filter((a) => WATCH_ACTIONS.has(a.type) && a.id && active.has(a.id)).map((a) => a.id!);
    if (!made.length) {
      if (started) break;
      continue;
    }
    started = true;
    for (const id of made.reverse()) if (!ids.includes(id)) ids.unshift(id);
  }
  return ids;
}

/**
 * Which watches "both" (count 2) or "them", "those", "all of them" (count 0) mean: those last made when they are as
 * many as said (two or more for "them"), or one watch of two rooms; for "both", the home's two watches when it has exactly two. Undefined when
 * nothing fits, or "them" after one watch only (left to the reading of "it").
 */
export function findPluralWatches(ctx: HouseholdContext, count: number): string[] | undefined {
  const made = findWatchesLastMade(ctx);
  if (count === 2) {
    if (made.length === 2) return made;
    // ("watch the shed and the garage tonight" — "stop both": one watch of two places)
    const one = made.length === 1 ? ctx.watches.find((w) => w.id === made[0]) : undefined;
    if (one && new Set(ctx.sensors.filter((s) => one.sensor_ids.includes(s.id)).map((s) => s.room)).size === 2) return made;
    return ctx.watches.length === 2 ? ctx.watches.map((w) => w.id) : undefined;
  }
  return made.length >= 2 ? made : undefined;
}
