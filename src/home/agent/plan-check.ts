/**
 * The last look before a plan acts: does the plan reflect every clock time, weekday and date the
 * message says? A reading that dropped or bent one of them (a "half ten" read as 21:30, "about 7"
 * read as a window around 19:00, "on friday" planned on thursday) turns into one question that says
 * what was understood, instead of a watch on the wrong hours. The same holds for readings that are
 * two-way by nature ("next saturday": the coming one or the one after) and for a date said without
 * any hours. See docs/decisions.md, "Round F household: safeguards before acting".
 *
 * Independent of how the planner read the message: it reads the message again, with its own small
 * reader of clock, weekday and date words, and compares with the arguments of the planned calls.
 */
import { DIALECT_DAY_PARTS, HOUR_WORDS, findSpokenClocks, parseWeekday } from '../../platform/language/index.ts';
import { toWallClock } from '../../platform/time/index.ts';
import type { HouseholdContext } from './context.ts';
import type { Plan, PlannedCall } from './plan.ts';
import { hideNameNumbersInText, isOtherLanguageName } from './place-resolver.ts';

/** A time of day the message says: `hour` 0–23 when the half of the day is known, else 1–12. */
interface SaidClock {
  text: string;
  hour: number;
  minute: number;
  certain: boolean;
}

/** Words after which a bare number is a time of day ("till 7", "between 3 and 6", "about 9"). */
const CLOCK_BEFORE = new Set([
  'at',
  'from',
  'till',
  'til',
  'until',
  'untill',
  'to',
  'between',
  'and',
  'by',
  'around',
  'about',
  'after',
  'before',
  'since',
  'starting',
  'start',
  'end',
  'ending',
  'thru',
  'through',
]);
/** Words after a number that make it something other than a time of day. */
const NOT_A_CLOCK_AFTER =
  /^(?:hours?|hrs?|h|mins?|minutes?|secs?|seconds?|days?|nights?|weeks?|months?|years?|people|persons?|cars?|vehicles?|sensors?|cameras?|times?|%|percent|more|less|of|or|x|kids?|dogs?|cats?|st|nd|rd|th|degrees?|km|miles?|metres?|meters?|m|ft)$/;
const MERIDIEM = /^(am|pm|a\.m\.?|p\.m\.?)$/;
/** A part of the day after a time fixes its half: "7 in the evening", "6 tomorrow morning". */
const PART_AFTER = /^(?:(?:in|on) )?(?:the )?(?:tomorrow |tonight |this |that |)(morning|afternoon|evening|night|tonight)\b/;

/** A sentence that tells what happened ("someone broke in on tuesday") sets no time of the request. */
const PAST_SENTENCE = /\b(had|was|were|did|didn't|got|went|came|happened|broke|stole|tried|saw|heard|last|ago|yesterday)\b/i;

/** The message without its sentences about the past. */
function presentPart(message: string): string {
  return message
    .split(/(?<=[.!?;])\s+|\s+[—–]\s+|\s+-\s+/)
    .filter((s) => !PAST_SENTENCE.test(s))
    .join(' ');
}

function words(message: string): string[] {
  return message
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/(\d)\.(\d\d)(?!\d)/g, '$1:$2')
    .replace(/(\d)\s*-\s*(\d)/g, '$1 to $2')
    .replace(/(\d)(am|pm|a\.m\.|p\.m\.)/g, '$1 $2')
    .replace(/(\d)(st|nd|rd|th)\b/g, '$1 $2')
    .replace(/[^a-z0-9:'.\s]/g, ' ')
    .replace(/\.(?=\s|$)/g, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => (DIALECT_DAY_PARTS[w] ?? w).split(' '));
}

function withMeridiem(hour: number, meridiem: string | undefined): { hour: number; certain: boolean } {
  // "between 1 and 5 tonight", "2 at night": the night runs on both sides of midnight
  if (meridiem === 'night' || meridiem === 'tonight') meridiem = undefined;
  if (!meridiem) return { hour, certain: hour === 0 || hour > 12 };
  const pm = meridiem.startsWith('p') || ['afternoon', 'evening', 'night', 'tonight'].includes(meridiem);
  return { hour: (hour % 12) + (pm ? 12 : 0), certain: true };
}

/** Every time of day the message says, in words or digits. */
export function findSaidClocks(message: string, minutesTo?: boolean): SaidClock[] {
  const w = words(message);
  const out: SaidClock[] = [];
  const taken = new Set<number>();
  for (const c of findSpokenClocks(w, minutesTo === undefined ? {} : { minutesTo })) {
    for (let i = c.start; i < c.end; i++) taken.add(i);
    const h = c.meridiem ? withMeridiem(c.hour, c.meridiem) : { hour: c.hour, certain: false };
    out.push({ text: w.slice(c.start, c.end).join(' '), hour: h.hour, minute: c.minute, certain: h.certain });
  }
  for (let i = 0; i < w.length; i++) {
    if (taken.has(i)) continue;
    const word = w[i];
    if (word === 'noon' || word === 'midday') out.push({ text: word, hour: 12, minute: 0, certain: true });
    if (word === 'midnight') out.push({ text: word, hour: 0, minute: 0, certain: true });
    let hour: number | undefined;
    let minute = 0;
    const colon = /^(\d{1,2}):(\d{2})$/.exec(word);
    if (colon) {
      hour = Number(colon[1]);
      minute = Number(colon[2]);
    } else if (/^\d{1,2}$/.test(word) || HOUR_WORDS[word] !== undefined) {
      const n = HOUR_WORDS[word] ?? Number(word);
      const next = w[i + 1] ?? '';
      const isClock =
        MERIDIEM.test(next) ||
        next === "o'clock" ||
        next === 'oclock' ||
        (CLOCK_BEFORE.has(w[i - 1] ?? '') && !NOT_A_CLOCK_AFTER.test(next) && !(next === 'and' && w[i + 2] === 'a'));
      // a number word is a time only with am/pm, o'clock or a clock preposition before it
      if (isClock && (HOUR_WORDS[word] === undefined || w[i - 1] !== 'and' || /^\d/.test(w[i - 2] ?? '') || HOUR_WORDS[w[i - 2] ?? ''] !== undefined)) hour = n;
    }
    if (hour === undefined || hour > 23 || minute > 59) continue;
    const next = w[i + 1] ?? '';
    const part = PART_AFTER.exec(w.slice(i + 1, i + 5).join(' '))?.[1];
    const meridiem = MERIDIEM.test(next) ? next : part === 'morning' ? 'am' : part;
    if (hour === 0 && !colon) continue;
    const h = hour > 12 ? { hour, certain: true } : withMeridiem(hour, meridiem);
    out.push({ text: w.slice(i, MERIDIEM.test(next) ? i + 2 : i + 1).join(' '), hour: h.hour, minute, certain: h.certain });
  }
  return out;
}

function clockMatches(c: SaidClock, at: ReturnType<typeof toWallClock>): boolean {
  if (c.minute !== at.minute) return false;
  if (c.certain) return c.hour === at.hour;
  return c.hour % 12 === at.hour % 12;
}

/** Weekdays named once ("on friday", "till sunday"), not weekly patterns ("fridays", "every friday"). */
function findSaidWeekdays(w: string[]): { text: string; weekday: number; next: boolean }[] {
  const out: { text: string; weekday: number; next: boolean }[] = [];
  for (let i = 0; i < w.length; i++) {
    if (!/^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/.test(w[i])) continue;
    const weekday = parseWeekday(w[i]);
    if (weekday === undefined) continue;
    out.push({ text: w.slice(Math.max(0, i - 1), i + 1).join(' '), weekday, next: w[i - 1] === 'next' });
  }
  return out;
}

/** Days of the month said with an ordinal ("the 3rd", "on the 31st"). */
function findSaidDates(w: string[]): { text: string; day: number }[] {
  const out: { text: string; day: number }[] = [];
  for (let i = 0; i < w.length - 1; i++) {
    if (/^\d{1,2}$/.test(w[i]) && /^(st|nd|rd|th)$/.test(w[i + 1])) {
      const day = Number(w[i]);
      if (day >= 1 && day <= 31) out.push({ text: `the ${w[i]}${w[i + 1]}`, day });
    }
  }
  return out;
}

const WATCH_TOOLS = new Set(['create_watch', 'update_watch']);
const WEEKDAY_LABELS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function understood(calls: PlannedCall[]): string {
  const said = calls
    .map((c) => c.say)
    .filter((s): s is string => Boolean(s))
    .map((s) =>
      s
        .replace(/^I'm /, '')
        .replace(/^I've /, '')
        .replace(/[.!]+$/, ''),
    );
  return said.length ? `I read that as ${said.join(', and ')}` : 'I read that as a change to a watch';
}

/**
 * A question when the plan does not account for a time, day or date the message says, or when the
 * message is two-way on the day; undefined when the plan may act. Only plans that create or change
 * a watch's window are checked: the other tools take no times.
 */
export function checkPlanAgainstMessage(message: string, plan: Plan, ctx: HouseholdContext): string | undefined {
  const calls = plan.calls.filter((c) => WATCH_TOOLS.has(c.tool));
  if (!calls.length || plan.clarification) return undefined;
  const present = presentPart(hideNameNumbersInText(message, ctx));
  const w = words(present);
  const { bounds, weekly } = readPlanBounds(calls, ctx);
  const walls = bounds.filter((b) => Number.isFinite(b)).map((b) => toWallClock(b, ctx.timeZone));
  if (!walls.length) return undefined;
  // the days a window touches: a boundary at midnight is also the end of the day before ("until the 30th")
  const days = walls.flatMap((at) =>
    at.hour === 0 && at.minute === 0 ? [at, toWallClock(Date.UTC(at.year, at.month - 1, at.day, 12) - 86_400_000, 'UTC')] : [at],
  );
  const head = understood(calls);

  const next = weekly ? undefined : checkNextWeekday(w, ctx);
  if (next) return next;

  // "from ten to seven …": one time (18:50) or a range; the plan may have read either
  const readings = [findSaidClocks(present), findSaidClocks(present, true)];
  const clocks = readings[0];
  const misses = readings.map((r) => r.find((c) => !walls.some((at) => clockMatches(c, at))));
  const missing = misses.every(Boolean) ? misses[0] : undefined;
  if (missing) {
    return `${head}, but that doesn't match "${missing.text}" in your message, so I haven't changed anything. From what time until what time should I watch?`;
  }
  if (!weekly) {
    const day = findSaidWeekdays(w).find((d) => !days.some((at) => at.weekday === d.weekday));
    if (day) return `${head}, but you said "${day.text}", so I haven't changed anything. Which day and hours did you mean?`;
  }
  const date = findSaidDates(w).find((d) => !days.some((at) => at.day === d.day));
  if (date) return `${head}, but you said "${date.text}", so I haven't changed anything. Which day and hours did you mean?`;

  const relative = checkRelativeDays(w, walls, calls, ctx, head);
  if (relative) return relative;
  const twoWay = isAnswerToDayPart(ctx, walls) ? undefined : checkTwoWayRange(w, clocks, head, walls, toWallClock(ctx.now, ctx.timeZone));
  if (twoWay) return twoWay;

  const widened = checkScope(present, calls, ctx, head);
  if (widened) return widened;

  if (!clocks.length && !weekly) return checkDayWithoutHours(w, calls, ctx, head);
  return undefined;
}

/** The boundaries the plan sets, plus those of a watch it edits (an edit may keep the start), and whether a window repeats. */
function readPlanBounds(calls: PlannedCall[], ctx: HouseholdContext): { bounds: number[]; weekly: boolean } {
  const bounds: number[] = [];
  let weekly = false;
  for (const c of calls) {
    for (const key of ['starts_at', 'ends_at'] as const) if (typeof c.args[key] === 'string') bounds.push(Date.parse(c.args[key] as string));
    if (typeof c.args.recurrence === 'string' && c.args.recurrence !== 'none') weekly = true;
    const edited = c.tool === 'update_watch' ? ctx.watches.find((x) => x.id === c.args.watch_id) : undefined;
    if (edited) {
      if (c.args.starts_at === undefined) bounds.push(Date.parse(edited.starts_at));
      if (c.args.ends_at === undefined) bounds.push(Date.parse(edited.ends_at));
      if (c.args.recurrence === undefined && edited.recurrence !== 'none') weekly = true;
    }
  }
  return { bounds, weekly };
}

/** "next saturday" said on a tuesday: this coming one, or the one after? */
function checkNextWeekday(w: string[], ctx: HouseholdContext): string | undefined {
  const next = findSaidWeekdays(w).find((d) => d.next);
  if (!next) return undefined;
  const now = toWallClock(ctx.now, ctx.timeZone);
  const ahead = (next.weekday - now.weekday + 7) % 7 || 7;
  const first = toWallClock(ctx.now + ahead * 86_400_000, ctx.timeZone);
  const second = toWallClock(ctx.now + (ahead + 7) * 86_400_000, ctx.timeZone);
  const label = (d: ReturnType<typeof toWallClock>) => `${WEEKDAY_LABELS[d.weekday]} ${d.day} ${MONTHS[d.month - 1]}`;
  return `I haven't changed anything yet: "${next.text}" can mean ${label(first)} or ${label(second)} — which one did you mean?`;
}

/** A day named without hours ("watch the shed on the 31st"): the hours are the user's to say. */
function checkDayWithoutHours(w: string[], calls: PlannedCall[], ctx: HouseholdContext, head: string): string | undefined {
  const created = calls.filter((c) => c.tool === 'create_watch' && typeof c.args.starts_at === 'string' && typeof c.args.ends_at === 'string');
  if (
    !created.length ||
    /\b(all day|whole day|entire day|full day|all weekend|whole weekend|24 ?h(ou)?rs?|day and night|for \S+ (days?|nights?|hours?|hrs?|weeks?))\b/.test(
      w.join(' '),
    )
  )
    return undefined;
  const now = toWallClock(ctx.now, ctx.timeZone);
  const dayOnly = created.find((c) => {
    const s = toWallClock(Date.parse(c.args.starts_at as string), ctx.timeZone);
    const e = toWallClock(Date.parse(c.args.ends_at as string), ctx.timeZone);
    const later = s.year !== now.year || s.month !== now.month || s.day !== now.day;
    return later && s.hour === 0 && s.minute === 0 && e.hour === 0 && e.minute === 0;
  });
  if (dayOnly && (findSaidDates(w).length || findSaidWeekdays(w).length)) {
    return `${head.replace(/, 24 hours.*$/, '')} — but you didn't say the hours, so I haven't changed anything. From what time until what time should I watch?`;
  }
  return undefined;
}

/**
 * Words that say a group on purpose: then a plan may cover places the message does not name. A group
 * word over times is no group of places ("all of next week", "all night long", "every night").
 */
const GROUP_WORDS =
  /\b(all(?! (?:(?:of )?(?:the )?(?:next |this |that |coming )?(?:night|day|evening|morning|afternoon|weekend|week|month|time|holidays?|trip|hours?)s?\b|long\b))|every(?!\s*(?:night|day|evening|morning|weeknight|weekday|weekend|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b)|everything|everywhere|whole (?:house|home|place|flat|apartment|property)|entire (?:house|home|place|flat|apartment|property)|the (?:house|home|place|flat|apartment|property)|cameras|sensors|doors|windows|entrances|except|but not|apart from|other than|both|each)\b/;
/** A part of the home said by where it is ("the outside cameras"): the plan must keep to it. */
const AREA_QUALIFIERS = /\b(outside|outdoors?|exterior|external|inside|indoors?|interior|internal|upstairs|downstairs)\b/;
/** Words of a room or sensor name that do not tell it apart. */
const GENERIC_NAME_WORDS = new Set([
  'camera',
  'cam',
  'sensor',
  'contact',
  'motion',
  'door',
  'room',
  'the',
  'front',
  'back',
  'side',
  'rear',
  'main',
  'of',
  'and',
  'detector',
  'doorbell',
]);

function nameWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .split(/[^a-z0-9]+/)
    .filter((x) => x.length > 2 && !GENERIC_NAME_WORDS.has(x));
}

/**
 * Named places never widen: when the message names places of the home, a watch that also covers
 * sensors of places it does not name needs a word that asks for a group ("all", "everything", "the
 * cameras"), and a group said with where it is ("the outside cameras") must not reach places the
 * message does not name.
 */
function checkScope(present: string, calls: PlannedCall[], ctx: HouseholdContext, head: string): string | undefined {
  const text = ` ${present
    .toLowerCase()
    .replace(/['’]s\b/g, '')
    .replace(/[^a-z0-9]+/g, ' ')} `;
  const said = (words: string[]) => words.some((x) => text.includes(` ${x} `) || text.includes(` ${x}s `));
  // a name made only of common words ("back door", "front door camera") is matched whole
  const saidName = (name: string) => {
    const words = nameWords(name);
    if (words.length) return said(words);
    const whole = name
      .toLowerCase()
      .replace(/['’]s\b/g, '')
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
    const parts = whole.split(' ');
    return [whole, parts.slice(0, 2).join(' ')].some((x) => x.includes(' ') && text.includes(` ${x} `));
  };
  const group = GROUP_WORDS.test(text);
  const area = AREA_QUALIFIERS.exec(text)?.[1];
  for (const c of calls) {
    const ids = Array.isArray(c.args.sensor_ids) ? (c.args.sensor_ids as string[]) : [];
    if (ids.length < 2) continue;
    const sensors = ids.map((id) => ctx.sensors.find((s) => s.id === id)).filter((s): s is HouseholdContext['sensors'][number] => Boolean(s));
    // an edit keeps the places of the watch it changes
    const kept = new Set(c.tool === 'update_watch' ? (ctx.watches.find((x) => x.id === c.args.watch_id)?.sensor_ids ?? []) : []);
    // ("the entrance" of the genkan's entrance camera: the camera's name said is the room's, see findRoomNamedByCamera)
    const byCamera = (s: (typeof sensors)[number]) =>
      isOtherLanguageName(s.room) && sensors.some((o) => o.room === s.room && o.kind === 'camera' && saidName(o.name));
    const named = sensors.filter((s) => kept.has(s.id) || saidName(s.room) || saidName(s.name) || byCamera(s));
    const unnamed = sensors.filter((s) => !named.includes(s));
    if (!unnamed.length || (!named.length && !area)) continue;
    if (group && !area) continue;
    const list = unnamed.map((s) => s.name).join(', ');
    return area
      ? `${head}, which includes the ${list} — I'm not sure those count as "${area}", so I haven't changed anything. Which places exactly should I watch?`
      : `${head}, which also covers the ${list} that you didn't name, so I haven't changed anything. Which places exactly should I watch?`;
  }
  return undefined;
}

const DAY_PART_WORDS =
  /\b(am|pm|a\.m|p\.m|morning|afternoon|evening|night|tonight|overnight|noon|midday|midnight|sunset|sunrise|dusk|dawn|dark|bed|bedtime|lunch|breakfast|dinner|work|school|day|daytime)\b/;

/**
 * "from 8 to 8": morning to evening, or the night through? "between 3 and 6" with nothing saying
 * which half of the day: both readings are windows people ask for. Either way it is asked.
 * See docs/decisions.md, "Round F household: relative days and starts".
 */
function checkTwoWayRange(
  w: string[],
  clocks: SaidClock[],
  head: string,
  walls: { hour: number; day: number }[],
  now: { hour: number; minute: number; day: number },
): string | undefined {
  // ("the cleaner comes at 2 tomorrow, watch the kitchen from 2 to 4": a statement's hour beside the
  // range, said last, decides nothing: a plan that read the range in the small hours is asked about —
  // docs/decisions.md, "Round L household: times")
  if (clocks.length > 2 && !walls.some((x) => x.hour < 7)) return undefined;
  const range = clocks.length > 2 ? clocks.slice(-2) : clocks;
  if (range.length !== 2 || range.some((c) => c.certain) || (clocks.length === 2 && DAY_PART_WORDS.test(w.join(' ')))) return undefined;
  const [a, b] = range;
  const same = clocks.length === 2 && a.hour % 12 === b.hour % 12 && a.minute === b.minute;
  const smallHours = a.hour >= 1 && a.hour <= 5 && b.hour > a.hour && b.hour <= 6;
  if (!same && !smallHours) return undefined;
  // "between 3 and 6" said at 11:00 or 13:20: the morning's reading is the night's small hours and over, so the
  // afternoon's (the plan's, today) is the only one still ahead today; said after the afternoon's reading, or while
  // the morning's is still ahead, it is asked (docs/decisions.md, "Round M household: times", "Before round S: times")
  const morningOver = now.hour * 60 + now.minute >= (b.hour % 12) * 60 + b.minute;
  if (!same && morningOver && walls.every((x) => x.hour >= 12 && x.day === now.day)) return undefined;
  const what = same
    ? `"${a.text} to ${b.text}" can be ${a.hour % 12 || 12} in the morning to ${b.hour % 12 || 12} in the evening, or the night through`
    : `"${a.text}" to "${b.text}" can be in the morning or in the afternoon`;
  return `${head}, but ${what}, so I haven't changed anything. Which did you mean (say am or pm)?`;
}

/**
 * "watch the shed tomorrow afternoon" (asked which hours, nothing changed) — "from 2 till 5": the
 * part of the day the conversation named says the half of the day (docs/decisions.md, "Round J household: time").
 */
function isAnswerToDayPart(ctx: HouseholdContext, walls: ReturnType<typeof toWallClock>[]): boolean {
  const last = ctx.conversation?.turns.at(-1);
  const part = last && !last.actions.length ? /\b(morning|afternoon|evening)\b/i.exec(last.message)?.[1].toLowerCase() : undefined;
  if (!part) return false;
  // (the plan's hours are that part's: 05–12, 12–18, 17–23)
  const [lo, hi] = part === 'morning' ? [5, 12] : part === 'afternoon' ? [12, 18] : [17, 23];
  return walls.every((x) => x.hour + x.minute / 60 >= lo && x.hour + x.minute / 60 <= hi);
}

/** "1 to 5 tomorrow night": a window in the small hours after tomorrow's evening, which is the day after tomorrow by the calendar. */
function isTomorrowNightsSmallHours(text: string, walls: ReturnType<typeof toWallClock>[], ctx: HouseholdContext): boolean {
  if (!/\btomorrow night\b/.test(text) || !walls.length) return false;
  const after = toWallClock(ctx.now + 2 * 86_400_000, ctx.timeZone);
  return walls.every((x) => x.year === after.year && x.month === after.month && x.day === after.day && x.hour < 6);
}

/**
 * The days and starts said relative to now: "tomorrow" needs a window that touches tomorrow;
 * "tonight" and "this evening" one that starts by the end of today; "in 20 minutes" and "from now"
 * a start that far from now. A plan that dropped one of them asks instead of acting.
 */
function checkRelativeDays(
  w: string[],
  walls: ReturnType<typeof toWallClock>[],
  calls: PlannedCall[],
  ctx: HouseholdContext,
  head: string,
): string | undefined {
  const text = w.join(' ');
  const dayOf = (ms: number) => {
    const x = toWallClock(ms, ctx.timeZone);
    return `${x.year}-${x.month}-${x.day}`;
  };
  const today = dayOf(ctx.now);
  const tomorrow = dayOf(ctx.now + 86_400_000);
  const created = calls.filter((c) => c.tool === 'create_watch' && typeof c.args.starts_at === 'string');
  const starts = created.map((c) => Date.parse(c.args.starts_at as string)).filter(Number.isFinite);
  const wallDays = walls.map((x) => `${x.year}-${x.month}-${x.day}`);
  // "tomorrow" (not "the day after tomorrow"): some boundary of the window falls on tomorrow
  if (/\btomorrow\b/.test(text) && !/\bday after tomorrow\b/.test(text) && !wallDays.includes(tomorrow) && !isTomorrowNightsSmallHours(text, walls, ctx)) {
    return `${head}, but you said "tomorrow", so I haven't changed anything. Which day and hours did you mean?`;
  }
  if (!starts.length) return undefined;
  // "tonight", "this evening": a new watch starts by the end of today (or is the night in progress)
  if (
    /\b(tonight|this evening)\b/.test(text) &&
    !/\btomorrow\b/.test(text) &&
    !/\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|next|every)\b/.test(text) &&
    starts.some((s) => dayOf(s) !== today && s > ctx.now + 86_400_000 / 2 && dayOf(s) !== tomorrow)
  ) {
    const said = /\btonight\b/.test(text) ? 'tonight' : 'this evening';
    return `${head}, but you said "${said}", so I haven't changed anything. Which day and hours did you mean?`;
  }
  // "in 20 minutes", "in an hour": a delayed start; "from now", "starting now": a start now
  const delay = /\b(?:starting|start|from|beginning|begin) in (\d+|an?|half an) (minutes?|mins?|hours?|hrs?)\b/.exec(text);
  if (delay) {
    const n = delay[1] === 'half an' ? 0.5 : /^an?$/.test(delay[1]) ? 1 : Number(delay[1]);
    const ms = n * (/^h/.test(delay[2]) ? 3_600_000 : 60_000);
    if (!starts.some((s) => Math.abs(s - (ctx.now + ms)) <= 120_000)) {
      return `${head}, but you said the watch should start "${delay[0].replace(/^(starting|start|from|beginning|begin) /, '')}", so I haven't changed anything. When should it start?`;
    }
  }
  if (/\b(?:from|starting|as of|beginning) (?:right )?now\b/.test(text) && !starts.some((s) => Math.abs(s - ctx.now) <= 120_000)) {
    return `${head}, but you said "from now", so I haven't changed anything. From what time until what time should I watch?`;
  }
  return undefined;
}
