/**
 * Clock times and amounts people type in shorthand, rewritten to the forms the time readers know
 * (docs/decisions.md, "Before round S: times"): "18h30" and "till 9h" are 18:30 and 09:00 (the
 * French and 24-hour way), "until 0630" is 06:30, "for 2h", "for 9hrs", "in 45m" are amounts in
 * hours and minutes, "til 7ish" is the clock 7 (the reply states the time taken), "first light" is
 * dawn and "last light" dusk. Called by ./normalize.ts on the lower-cased message.
 */

/** Words before a clock time (never "for" or "in", which come before an amount). */
const CLOCK_BEFORE = String.raw`(?<=\b(?:until|till|til|from|at|by|before|since|between|to|and|after) )`;
/** Words before "9h" read as a clock time ("after 2h", "2 to 3h" may be amounts). */
const H_CLOCK_BEFORE = String.raw`(?<=\b(?:until|till|til|from|at|by|since) )`;
const HOUR_WORDS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';

export function writtenClocksAndAmounts(text: string): string {
  return (
    text
      // "18h30", "9h05": always a clock time
      .replace(/\b([01]?\d|2[0-3])h([0-5]\d)\b/g, (_, h: string, m: string) => `${h.padStart(2, '0')}:${m}`)
      // "till 9h", "from 7h": a clock time after a clock word
      .replace(new RegExp(String.raw`${H_CLOCK_BEFORE}([01]?\d|2[0-3])h\b`, 'g'), (_, h: string) => `${h.padStart(2, '0')}:00`)
      // "from 9h to 17h": the end of a range whose start was one
      .replace(/(?<=\d\d:\d\d (?:to|and|till|until|-) )([01]?\d|2[0-3])h\b/g, (_, h: string) => `${h.padStart(2, '0')}:00`)
      // "until 0630", "from 2200": four digits after a clock word
      .replace(new RegExp(String.raw`${CLOCK_BEFORE}([01]\d|2[0-3])([0-5]\d)\b(?![.:]\d)`, 'g'), '$1:$2')
      // "for 2h", "for 9hrs", "in 1.5h", "for 45m": an amount glued to its unit
      .replace(/\b(\d+(?:\.\d+)?)(h|hrs?|hours?)\b/g, '$1 hours')
      .replace(/(?<=\b(?:for|in|next|another|extra|further) )(\d+)(m|mins?|minutes?)\b/g, '$1 minutes')
      // "7ish", "7 ish", "7:30-ish", "sevenish": the clock said
      .replace(/\b(\d{1,2}(?::[0-5]\d)?(?: ?[ap]\.?m\.?)?)[ -]?ish\b/g, '$1')
      .replace(new RegExp(String.raw`\b(${HOUR_WORDS})[ -]?ish\b`, 'g'), '$1')
      .replace(/\bfirst light\b/g, 'dawn')
      .replace(/\blast light\b/g, 'dusk')
  );
}
