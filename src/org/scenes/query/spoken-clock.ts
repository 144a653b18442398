/**
 * Clock times as people say them, rewritten into digits before the time phrase is read: "half
 * seven" (British: 7:30), "ten to eight" (7:50), "quarter past six", "twenty past 9", "seven
 * thirty", "at seven". The shared time reader knows "half past 7" and "quarter to 5" in digits;
 * these are the spoken forms around it. Only forms that cannot be anything but a clock time are
 * rewritten ("from ten to eight" stays a range, "half an hour" a duration).
 */

const HOURS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
};
const MINUTES: Record<string, number> = {
  five: 5, ten: 10, quarter: 15, twenty: 20, 'twenty five': 25, 'twentyfive': 25, half: 30,
};
const TENS: Record<string, number> = { fifteen: 15, thirty: 30, 'forty five': 45, fortyfive: 45, 'oh five': 5, twenty: 20, forty: 40, fifty: 50, ten: 10 };

const HOUR = `(\\d{1,2}|${Object.keys(HOURS).join('|')})`;
const MINUTE = `(twenty five|${Object.keys(MINUTES).join('|')}|\\d{1,2})`;

function hourOf(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : HOURS[word];
}
function minuteOf(word: string): number {
  return /^\d+$/.test(word) ? Number(word) : MINUTES[word];
}
function clock(h: number, m: number): string {
  return `${h}:${String(m).padStart(2, '0')}`;
}

/** Words after a bare hour that show it is a clock time ("at seven this evening", "at seven?"). */
const AFTER_HOUR = '(?=\\s+(?:am|pm|oclock|this|today|tonight|yesterday|last|on|in the|and|or|to|till|until)\\b|\\s*$)';

/**
 * "at lunchtime", "over lunch": the middle of the day, 12:00 to 14:00 (docs/decisions.md, "Scene
 * questions: the second round"). "since lunch" or "after lunch" are left for the coverage rule,
 * since where lunch ends is anyone's guess.
 */
const LUNCH = /\b(?:(?:at|over|during|around|about)\s+(?:the\s+)?)?(?:lunch\s*time|lunch(?:\s+(?:break|hour))?)\b/;
const LUNCH_AFTER = /\b(?:since|after|before|until|till|from)\s+lunch/;

export function rewriteSpokenClock(text: string): string {
  const lunch = LUNCH_AFTER.test(text) ? text : text.replace(LUNCH, 'between 12pm and 2pm');
  return (
    lunch
      // "ten to eight", "quarter to nine", "5 minutes to 6" (not "from ten to eight", a range)
      .replace(new RegExp(`(?<!\\b(?:from|between)\\s)\\b${MINUTE}(?: minutes)? (to|till|before) ${HOUR}\\b(?! (?:minutes|hours|people|cars|vehicles))`, 'g'), (m, min: string, _dir: string, hour: string) => {
        const mm = minuteOf(min);
        const h = hourOf(hour);
        if (!(mm > 0 && mm < 60) || !(h >= 1 && h <= 23) || (min === 'half')) return m;
        // a digit before "to" is a range unless written as minutes ("5 minutes to 6")
        if (/^\d+$/.test(min) && !/minutes/.test(m)) return m;
        return clock((h + 23) % 24 || 24, 60 - mm).replace(/^24:/, '0:');
      })
      // "quarter past six", "twenty past nine", "ten after 8"
      .replace(new RegExp(`\\b${MINUTE}(?: minutes)? (past|after) ${HOUR}\\b`, 'g'), (m, min: string, _dir: string, hour: string) => {
        const mm = minuteOf(min);
        const h = hourOf(hour);
        if (!(mm > 0 && mm < 60) || !(h >= 0 && h <= 23)) return m;
        if (/^\d+$/.test(min) && !/minutes/.test(m) && _dir !== 'past') return m;
        return clock(h, mm);
      })
      // "half seven": British for 7:30 (not "half an hour", "half past")
      .replace(new RegExp(`\\bhalf ${HOUR}\\b(?! (?:hours?|minutes?|people|cars))`, 'g'), (m, hour: string) => {
        const h = hourOf(hour);
        return h >= 1 && h <= 12 ? clock(h, 30) : m;
      })
      // "seven thirty", "eight fifteen", "nine forty five"
      .replace(new RegExp(`\\b(${Object.keys(HOURS).join('|')}) (fifteen|thirty|forty five|fortyfive|forty|fifty|twenty|oh five)\\b(?! (?:minutes|hours|people|cars|vehicles))`, 'g'), (m, hour: string, mins: string) =>
        clock(HOURS[hour], TENS[mins]),
      )
      // "at seven", "since nine this morning", "between seven and eight"
      .replace(new RegExp(`\\b(at|since|after|before|until|till|around|about|by|between|and|to) (${Object.keys(HOURS).join('|')})${AFTER_HOUR}`, 'g'), (_m, prep: string, hour: string) =>
        `${prep} ${HOURS[hour]}`,
      )
  );
}
