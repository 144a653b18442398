/**
 * A time of day named by what happens then ("at drop-off", "at pick-up", "since opening", "at
 * closing"): the scene does not say which hours those are, so the question is asked back with what
 * was understood, never answered over invented hours (docs/decisions.md, "Before round L: scene
 * questions"). "drop" and "pick" in these nouns are not a fall or a rise of a count.
 * When the question names its own clock time ("how many cars were dropping off at 8 o'clock"),
 * the activity says what the people or cars were doing, which the counts do not tell apart: it is
 * left out and the count at that time is answered.
 */

/** "drop-off", "dropoff", "drop off", "pick-up", "pickup", "pick ups", "the school run", "home time". */
const ACTIVITY_NOUN = String.raw`(?:drop[\s-]?offs?|pick[\s-]?ups?|school[\s-]run|home[\s-]time|closing(?:[\s-]time)?|opening(?:[\s-]time)?|closing[\s-]up|shift[\s-]change(?:over)?|changeover)`;
const BEFORE_NOUN = String.raw`(?:at|during|around|about|before|after|since|till|until|by|from|for|near|over)`;
/** The noun after a preposition: "at drop-off", "since opening", "around the morning pick-up". */
const ACTIVITY_TIME = new RegExp(String.raw`\b${BEFORE_NOUN}\s+(?:the\s+)?(?:(?:morning|afternoon|evening|school|daily)\s+)?${ACTIVITY_NOUN}\b`, 'i');
/** "dropping off", "picking up", "dropped off": the activity as a verb. */
const ACTIVITY_VERB = /\b(?:(?:were|was|are|is)\s+)?(?:dropping|picking)\s+(?:off|up)\b/i;
/** A clock time the question names itself: "at 8", "8 o'clock", "8:30", "8am". */
const CLOCK_TIME =
  /\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'?clock)\b|\b\d{1,2}:\d{2}\b|\b(?:at|between|from|after|before|since|till|until)\s+\d{1,2}\b/i;

export type ActivityReading = { kind: 'plain'; query: string } | { kind: 'ask'; reason: string } | { kind: 'part'; query: string; part: string };

/**
 * "how many cars are at the drop-off right now", "anyone in the pick-up zone": the drop-off or
 * pick-up as a place, a part of the scene, not a time of day: followed by a word for a part ("zone",
 * "area", "bay"), or said of the present moment with nothing past in the question. The camera
 * counts the whole scene, so the part is answered as one (sub-areas.ts) and the answer says so
 * (docs/decisions.md, "Before round S: scene questions").
 */
const PLACE_NOUN = String.raw`(?:drop[\s-]?off|pick[\s-]?up)`;
const PART_AFTER = new RegExp(String.raw`\b(?:at|in|near|by|on)\s+the\s+(${PLACE_NOUN}(?:\s+(?:zone|area|bay|bays|lane|point|spot|kerb|curb)))\b`, 'i');
const PLACE_NOW = new RegExp(String.raw`\b(?:at|in|near|by|on)\s+the\s+(${PLACE_NOUN})\b`, 'i');
const PRESENT_MOMENT = /\b(?:now|currently|presently|at the moment|at present)\b/i;
const PAST_OR_SPAN =
  /\b(?:was|were|did|had|been|today|yesterday|tonight|morning|afternoon|evening|night|since|last|this|ago|earlier|peak|busiest|most|first|usually|ever)\b/i;

function readDropOffPlace(query: string): ActivityReading | undefined {
  const part = PART_AFTER.exec(query) ?? (PRESENT_MOMENT.test(query) && !PAST_OR_SPAN.test(query) ? PLACE_NOW.exec(query) : null);
  if (!part) return undefined;
  const name = part[1].toLowerCase().replace(/^(drop|pick)[\s-]?(off|up)/, '$1-$2');
  return { kind: 'part', query: `${query.slice(0, part.index)} ${query.slice(part.index + part[0].length)}`.replace(/\s+/g, ' ').trim(), part: name };
}

/** What a question that names a time of day by an activity becomes: the question without it, or asked back. */
export function readActivityTime(query: string, place: string): ActivityReading {
  const noun = ACTIVITY_TIME.exec(query);
  const verb = ACTIVITY_VERB.exec(query);
  const clock = CLOCK_TIME.test(query);
  const asPlace = readDropOffPlace(query);
  if (asPlace) return asPlace;
  if (noun && !clock) {
    const phrase = noun[0].trim();
    return {
      kind: 'ask',
      reason:
        `I understood "${phrase}" as a time of day named by what happens then, not as a fall or a rise in the count, ` +
        `but the ${place} does not say which hours that is; ask with the hours, e.g. "peak count between 8 and 9am?"`,
    };
  }
  // "how many cars were dropping off at 8 o'clock": the cars there at 8 (the counts do not say what they were doing)
  if (verb && clock)
    return { kind: 'plain', query: query.replace(verb[0], verb[0].match(/^(were|was|are|is)\b/i) ? `${verb[0].split(/\s+/)[0]} there` : 'there') };
  if (noun && clock) return { kind: 'plain', query: query.replace(noun[0], '') };
  return { kind: 'plain', query };
}
