/**
 * "when it gets dark watch the porch", "once it's light, keep an eye on the garage till noon", "after we
 * leave watch the balcony": a time clause said before a request is when the request should happen, not a
 * question. A sun time the agent knows (dark, dusk, sunset; light, dawn, sunrise) becomes the watch's start
 * (a stand-down's end); an event it cannot know ("after we leave", "when the kids are asleep") is asked
 * about and nothing changes. "when does the porch watch end?" stays a question: its clause opens with an
 * auxiliary. See docs/decisions.md, "Before round L".
 */

import { getSunTime } from '../../platform/language/index.ts';
import { toLocalDate } from '../../platform/time/index.ts';
import type { HouseholdContext } from './context.ts';

/** What a leading time clause makes of the message: a message to read instead, or a question. */
export type LeadingClause = { rewrite: string } | { ask: string };

const OPENERS = '(?:as soon as|soon as|the moment|the minute|when|whenever|once|after)';
/** Requests a leading clause may time; "let me know", "tell me" after "when the gate opens" are alerts of their own. */
const WATCH_VERBS = '(?:watch|keep an eye on|keep watch on|keep watch over|keep an eye out on|monitor|guard|start watching)';
const STOP_VERBS = '(?:stop watching|stand down|call off|cancel|end)';
const AT_ONCE_VERBS = '(?:mute|unmute|arm|disarm|silence)';
const FRAME = '(?:(?:please|pls|can you|could you|would you|will you|can u|could u)\\s+)*';
const LEADING = new RegExp(`^(?:${OPENERS}|at)\\s+(.+?),?\\s+${FRAME}(${WATCH_VERBS}|${STOP_VERBS}|${AT_ONCE_VERBS})\\b(.*)$`);
const IS_STOP = new RegExp(`^${STOP_VERBS}$`);
const IS_AT_ONCE = new RegExp(`^${AT_ONCE_VERBS}$`);
const LEAD_WORD = new RegExp(`^(?:${OPENERS}|at)`);
/** "at 10pm, …", "at half 9, …": a clock time said alone before a request (docs/decisions.md, "Round L household: times"). */
const CLOCK = /^(?:\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?|half\s+\d{1,2}|noon|midday|midnight)$/;

const DARK =
  /^(?:(?:it|it's|its)\s+(?:is\s+|gets\s+|goes\s+|turns\s+|has\s+got\s+|has\s+gotten\s+|'s\s+)?(?:dark|dusk|night)|dark|dusk|nightfall|night falls|sunset|sundown|the sun(?:'s|\s+is|\s+has)?\s+(?:gone\s+)?(?:down|set)|the sun\s+(?:goes|sets|has set|has gone)(?:\s+down)?|the sun's set)$/;
const LIGHT =
  /^(?:(?:it|it's|its)\s+(?:is\s+|gets\s+|turns\s+|'s\s+)?(?:light|dawn|morning)|first light|dawn|daybreak|sunrise|sunup|the sun(?:'s|\s+is|\s+has)?\s+(?:come\s+)?up|the sun\s+(?:comes up|rises|has risen|is rising))$/;
/** A clause with its own subject and verb: an event ("we leave", "the kids are asleep"), not "10pm" or "the game". */
const EVENT =
  /^(?:we|we're|we've|we'll|i|i'm|i've|i'll|they|they're|you|you're|he|she|everyone|everybody|the kids|the baby|the family|my|our|the\s+\w+\s+(?:is|are|has|have|gets|get|goes|go|comes|come|leaves|leave|arrives|arrive))\b/;
/** "when does…", "when is…": a question, never a time clause. */
const AUXILIARY = /^(?:does|do|did|is|are|was|were|will|would|can|could|should|has|have|had|am)\b/;
/** The request names a start of its own ("…watch the porch from 9"): two starts are asked about. */
const OWN_START = /\b(?:from|starting|beginning|at\s+\d|tonight|tomorrow|now)\b/;

/** Reads a time clause said before a request, or undefined when the message does not open with one. */
export function readLeadingClause(message: string, ctx: HouseholdContext): LeadingClause | undefined {
  const text = message
    .trim()
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[.!]+$/, '');
  const m = LEADING.exec(text);
  if (!m || text.endsWith('?')) return undefined;
  const [, clause, verb, rest] = m;
  const said = clause.trim().replace(/,$/, '');
  if (AUXILIARY.test(said)) return undefined;
  const sun = DARK.test(said) ? 'sunset' : LIGHT.test(said) ? 'sunrise' : undefined;
  const request = `${verb}${rest}`.trim();
  // "at 10pm, mute the shed": a mute, an arm has no start time; "at 10pm, watch the porch till 6": the watch's start
  if (!sun && leadWord(text) === 'at') return CLOCK.test(said) ? readLeadingClock(said, verb, rest) : undefined;
  if (!sun) {
    if (!EVENT.test(said)) return undefined;
    return {
      ask: `I understood that you want me to ${request}, starting ${leadWord(text)} ${said}, but I can't tell when that is, so I haven't changed anything. Tell me a time to start (or say "now").`,
    };
  }
  // ("at sunset, stop watching the carport": a watch that itself starts at sunset may be meant: asked)
  if (IS_STOP.test(verb) && leadWord(text) === 'at') {
    return { ask: `I understood that you want me to ${request} at ${said}: should I stop it now, or make it end at ${sun}? I haven't changed anything.` };
  }
  if (IS_STOP.test(verb)) return OWN_START.test(rest) ? undefined : { rewrite: `${request} at ${sun}` };
  if (IS_AT_ONCE.test(verb)) {
    return {
      ask: `I understood that you want me to ${request} ${leadWord(text)} ${said}, but I can only do that now, not at a later time, so I haven't changed anything. Should I do it now?`,
    };
  }
  // ("when it gets dark…" said after dark: now, or tomorrow's sunset?)
  if (isAlready(sun, ctx)) {
    return {
      ask: `I understood that you want me to ${request} ${leadWord(text)} ${said}, but it is already ${sun === 'sunset' ? 'dark' : 'light'} at home: should I start now, or at ${sun} tomorrow? I haven't changed anything.`,
    };
  }
  if (OWN_START.test(rest)) {
    return {
      ask: `I understood that you want me to ${request}, but also to start ${leadWord(text)} ${said}: which start did you mean? I haven't changed anything.`,
    };
  }
  return { rewrite: `from ${sun} ${request}` };
}

/** A clock time said before a request: a watch's start, a stand-down's time, or a question for what is done at once. */
function readLeadingClock(said: string, verb: string, rest: string): LeadingClause | undefined {
  const request = `${verb}${rest}`.trim();
  if (IS_AT_ONCE.test(verb)) {
    return {
      ask: `I understood that you want me to ${request} at ${said}, but I can only do that now, not at a later time, so I haven't changed anything. Should I do it now?`,
    };
  }
  if (OWN_START.test(rest)) return undefined;
  if (IS_STOP.test(verb)) return { rewrite: `${request} at ${said}` };
  return { rewrite: `from ${said} ${request}` };
}

/** The opening words of the clause as said ("as soon as", "once", "when", "at"). */
function leadWord(text: string): string {
  return LEAD_WORD.exec(text)![0];
}

/** Today's sun event has passed and the next one has not come: it is already dark (or light). */
function isAlready(sun: 'sunset' | 'sunrise', ctx: HouseholdContext): boolean {
  const today = toLocalDate(ctx.now, ctx.timeZone);
  const time = { now: ctx.now, timeZone: ctx.timeZone, location: ctx.location };
  const [rise, set] = [getSunTime('sunrise', today, time), getSunTime('sunset', today, time)];
  const light = ctx.now >= rise && ctx.now < set;
  return sun === 'sunset' ? !light : light;
}
