import { HOUR_WORDS } from './number-words.ts';
import { rewriteSpokenClocks } from './spoken-clock.ts';

/**
 * Clock times in questions about the past, rewritten into digits before the past-range reader
 * (`findTimePhrase`) reads them. The shared spoken-clock reader (./spoken-clock.ts) reads the forms
 * it knows ("half seven", "quarter past six", "twenty past 9", "seven o'clock"); this adds, for
 * questions, what it leaves to its callers (see docs/decisions.md, "Scene questions: round C"):
 *
 *   "ten to eight", "5 minutes to 6"   minutes to an hour, unless after "from"/"between" (a range)
 *   "seven thirty", "nine forty five"  an hour word and a minute word
 *   "at seven", "since nine"           an hour word after a time preposition
 *   "at lunchtime", "over lunch"       12:00 to 14:00 ("since lunch" is left alone: where lunch
 *                                      ends is anyone's guess)
 *   "at 2:30 yesterday afternoon"      a clock time whose half of the day is said after the day
 *                                      ("yesterday afternoon", "on monday morning"): the day part
 *                                      fixes am/pm, so the phrase is one time, not two
 *
 * Only forms that cannot be anything but a clock time are rewritten ("from ten to eight" stays a
 * range, "half an hour" a duration).
 */

const MINUTES: Record<string, number> = {
  five: 5,
  ten: 10,
  quarter: 15,
  twenty: 20,
  'twenty five': 25,
  twentyfive: 25,
};
const TENS: Record<string, number> = { fifteen: 15, thirty: 30, 'forty five': 45, fortyfive: 45, 'oh five': 5, twenty: 20, forty: 40, fifty: 50, ten: 10 };

const HOUR = `(\\d{1,2}|${Object.keys(HOUR_WORDS).join('|')})`;
const MINUTE = `(twenty five|${Object.keys(MINUTES).join('|')}|\\d{1,2})`;
const NOT_A_COUNT = '(?! (?:minutes|hours|people|persons|cars|vehicles))';

function hourOf(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : HOUR_WORDS[word];
}
function minuteOf(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : MINUTES[word];
}
function clock(h: number, m: number): string {
  return `${h}:${String(m).padStart(2, '0')}`;
}

/** Words after a bare hour word that show it is a clock time ("at seven this evening", "at seven?"). */
const AFTER_HOUR = '(?=\\s+(?:am|pm|oclock|this|today|tonight|yesterday|last|on|in the|and|or|to|till|until)\\b|\\s*$)';

const LUNCH = /\b(?:(?:at|over|during|around|about)\s+(?:the\s+)?)?(?:lunch\s*time|lunch(?:\s+(?:break|hour))?)\b/;
const LUNCH_AFTER = /\b(?:since|after|before|until|till|from)\s+lunch/;

const WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
/** "2:30 yesterday afternoon", "9 on monday morning" ("9 this morning" the past-range reader reads as one) */
const CLOCK_THEN_DAY_PART = new RegExp(`\\b(\\d{1,2})(?::(\\d{2}))?\\s+(yesterday|(?:on\\s+|last\\s+)?${WEEKDAY})\\s+(morning|afternoon|evening)\\b`, 'g');

/** The half of the day a day part fixes: morning am, afternoon and evening pm. */
function withDayPart(hour: number, minute: number, part: string): string | undefined {
  if (hour < 1 || hour > 12 || minute > 59) return undefined;
  const mm = String(minute).padStart(2, '0');
  if (part === 'morning') return hour === 12 ? undefined : `${hour}:${mm}am`;
  return `${hour}:${mm}pm`;
}

/**
 * "at 7.30", "between 6.45 and 8.15pm": a clock time written with a dot (the British way) after a
 * time preposition or before am/pm; a decimal anywhere else ("2.5 hours", "above 7.5") is left.
 */
const DOTTED_CLOCK =
  /\b(at|since|after|before|until|till|around|about|by|between|and|from|to)\s+(\d{1,2})\.([0-5]\d)\b(?!\s*(?:%|percent|hours?|hrs?|minutes?|mins?|people|persons|cars|vehicles)\b)|\b(\d{1,2})\.([0-5]\d)\s*(am|pm)\b/g;
/** Dotted clock times as colon ones (see DOTTED_CLOCK); run before punctuation is stripped. */
export function rewriteDottedClocks(text: string): string {
  return text.replace(
    DOTTED_CLOCK,
    (m, prep: string | undefined, h1: string | undefined, m1: string | undefined, h2: string | undefined, m2: string | undefined, ap: string | undefined) => {
      const hour = Number(h1 ?? h2);
      if (hour > 23 || (ap && (hour < 1 || hour > 12))) return m;
      return prep ? `${prep} ${hour}:${m1}` : `${hour}:${m2}${ap}`;
    },
  );
}
/** "between midnight and 6", "from 9pm to midnight": inside a range midnight is the clock time 12am */
const RANGE_WITH_NOON_OR_MIDNIGHT = /\b(between|from)\s+(\S+(?:\s+(?:am|pm))?)\s+(and|to|till|until)\s+(\S+)/g;
const CLOCK_WORD: Record<string, string> = { midnight: '12am' };

/** The question's clock times in digits (see above). Lower-case text in, lower-case text out. */
export function rewriteClockPhrases(text: string): string {
  const ranged = text.replace(RANGE_WITH_NOON_OR_MIDNIGHT, (m, open: string, from: string, join: string, to: string) => {
    if (!CLOCK_WORD[from] && !CLOCK_WORD[to]) return m;
    // "between 10 and midnight": the past-range reader reads the start as the nearer hour (22:00)
    return `${open} ${CLOCK_WORD[from] ?? from} ${join} ${CLOCK_WORD[to] ?? to}`;
  });
  const spoken = rewriteSpokenClocks(ranged).text;
  const lunch = LUNCH_AFTER.test(spoken) ? spoken : spoken.replace(LUNCH, 'between 12pm and 2pm');
  return (
    lunch
      // "ten to eight", "quarter to nine", "5 minutes to 6" (not "from ten to eight", a range)
      .replace(
        new RegExp(`(?<!\\b(?:from|between)\\s)\\b${MINUTE}(?: minutes)? (to|till|before) ${HOUR}\\b${NOT_A_COUNT}`, 'g'),
        (m, min: string, _dir: string, hour: string) => {
          const mm = minuteOf(min);
          const h = hourOf(hour);
          if (!(mm > 0 && mm < 60) || !(h >= 1 && h <= 23)) return m;
          // a digit before "to" is a range unless written as minutes ("5 minutes to 6")
          if (/^\d+$/.test(min) && !/minutes/.test(m)) return m;
          return clock((h + 23) % 24 || 24, 60 - mm).replace(/^24:/, '0:');
        },
      )
      // "ten after 8" (the shared reader knows "past")
      .replace(new RegExp(`\\b${MINUTE}(?: minutes)? after ${HOUR}\\b`, 'g'), (m, min: string, hour: string) => {
        const mm = minuteOf(min);
        const h = hourOf(hour);
        if (!(mm > 0 && mm < 60) || !(h >= 0 && h <= 23) || (/^\d+$/.test(min) && !/minutes/.test(m))) return m;
        return clock(h, mm);
      })
      // "seven thirty", "eight fifteen", "nine forty five"
      .replace(
        new RegExp(`\\b(${Object.keys(HOUR_WORDS).join('|')}) (fifteen|thirty|forty five|fortyfive|forty|fifty|twenty|oh five)\\b${NOT_A_COUNT}`, 'g'),
        (_m, hour: string, mins: string) => clock(HOUR_WORDS[hour], TENS[mins]),
      )
      // "at seven", "since nine this morning", "between seven and eight"
      .replace(
        new RegExp(`\\b(at|since|after|before|until|till|around|about|by|between|and|to) (${Object.keys(HOUR_WORDS).join('|')})${AFTER_HOUR}`, 'g'),
        (_m, prep: string, hour: string) => `${prep} ${HOUR_WORDS[hour]}`,
      )
      // "at 2:30 yesterday afternoon": the day part says pm
      .replace(CLOCK_THEN_DAY_PART, (m, h: string, mm: string | undefined, day: string, part: string) => {
        const fixed = withDayPart(Number(h), Number(mm ?? 0), part);
        return fixed ? `${fixed} ${day}` : m;
      })
  );
}
