/**
 * "what time does it get dark tonight?", "when's sunrise tomorrow?": a question about the sun at
 * home, answered from the home's location (the same sun times a watch "from dusk" uses). A question
 * only: it changes nothing. See docs/decisions.md, "Round F household: relative days and starts".
 */
import { getSunTime, nextWeekday, parseWeekday, type SunEvent } from '../../platform/language/index.ts';
import { addDays, formatClock, toLocalDate } from '../../platform/time/index.ts';
import type { HouseholdContext } from './context.ts';
import type { Plan } from './plan.ts';

const SUN_QUESTION =
  /^(?:(?:hey|hi|so|and|ok(?:ay)?|quick question)[\s,]+)?(?:what time|when|at what time|what's the time|what is the time)\b(?:'s| is| does| will)?\s+(?:it\s+)?(?:(get|gets|getting|going to get|be|go)\s+(dark|light)|(?:the\s+)?(sunset|sunrise|sundown|dusk|dawn|sun\s*(?:set|rise|up|down))|(?:the\s+)?sun\s+(set|rise|go down|come up))\b([\w\s']*)[?.!\s]*$/i;

/** Words said after the question that change nothing: "anyway", "then", "exactly". */
const AFTERWORDS = /(?:\s*\b(?:anyway|anyhow|then|again|exactly|roughly|approximately|please|pls)\b)+$/;

const EVENT_WORDS: Record<string, SunEvent> = {
  dark: 'sunset',
  light: 'sunrise',
  sunset: 'sunset',
  sundown: 'sunset',
  dusk: 'dusk',
  dawn: 'dawn',
  sunrise: 'sunrise',
  set: 'sunset',
  rise: 'sunrise',
  'go down': 'sunset',
  'come up': 'sunrise',
  up: 'sunrise',
  down: 'sunset',
};

export function answerSunQuestion(message: string, ctx: HouseholdContext): Plan | undefined {
  const m = SUN_QUESTION.exec(message.trim());
  if (!m) return undefined;
  // ("what time is sunset anyway?", "when's sunrise tomorrow then?": words that change nothing, said after)
  const rest = (m[5] ?? '').trim().toLowerCase().replace(AFTERWORDS, '').trim();
  // only a day said plainly: "tonight", "today", "this evening", "tomorrow (morning)", "(on) friday"
  const weekday = readWeekday(rest);
  if (
    rest &&
    weekday === undefined &&
    !/^(?:(?:here|at home|round here|around here)\s*)?(?:tonight|today|this (?:evening|morning)|tomorrow(?: (?:morning|evening|night))?)?$/.test(rest)
  ) {
    // "sunset next friday", "sunrise on the 3rd": a day this does not read is asked about, never answered as another
    if (!/^(?:on|next|this|for)\b/.test(rest)) return undefined;
    const which = `I can tell you sunset and sunrise at your home for today, tomorrow or a day of the coming week (like "sunset on friday"). Which day did you mean by "${rest}"?`;
    return { planner: 'offline', calls: [], refusals: [], clarification: which, confidence: 1 };
  }
  const raw = (m[2] ?? m[3] ?? m[4] ?? '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^sun ?/, '');
  const event = EVENT_WORDS[raw];
  if (!event) return undefined;
  if (!ctx.location) {
    return {
      planner: 'offline',
      calls: [],
      refusals: [],
      clarification: "I don't know where your home is yet, so I can't work out sunset and sunrise. Which city do you live in?",
      confidence: 1,
    };
  }
  const today = toLocalDate(ctx.now, ctx.timeZone);
  const tomorrow = /\btomorrow\b/.test(rest);
  const day = weekday !== undefined ? nextWeekday(weekday, today, true) : tomorrow ? addDays(today, 1) : today;
  const at = getSunTime(event, day, { now: ctx.now, timeZone: ctx.timeZone, location: ctx.location });
  const later = weekday !== undefined && day.day !== today.day;
  const when = later
    ? `on ${new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'short', timeZone: ctx.timeZone }).format(at)}`
    : !tomorrow
      ? event === 'sunset' || event === 'dusk'
        ? 'tonight'
        : 'today'
      : 'tomorrow';
  const name = { sunset: 'Sunset', sunrise: 'Sunrise', dusk: 'Dusk', dawn: 'Dawn' }[event];
  const tense = at < ctx.now ? 'was' : 'is';
  return {
    planner: 'offline',
    calls: [],
    refusals: [],
    answers: [`${name} ${when} ${tense} at ${formatClock(at, ctx.timeZone)} at your home.`],
    confidence: 1,
  };
}

/** "friday", "on saturday", "this sunday (evening)": the weekday said, or undefined. "next friday" is two-way and is not read here. */
function readWeekday(rest: string): number | undefined {
  const m = /^(?:on\s+)?(?:this\s+)?([a-z]+)(?:\s+(?:morning|evening|night))?$/.exec(rest);
  return m ? parseWeekday(m[1]) : undefined;
}
