import type { DetectionRecord } from '../../detections/index.ts';
import { formatMoment } from '../../../platform/time/index.ts';
import { getNounSenses } from '../../../platform/language/index.ts';
import { describeLocation } from './query-interpreter.ts';
import type { Interpretation, QueryAnswer } from './query.types.ts';

/**
 * Scene questions about known people: "was Maria here today?", "when did Tom
 * arrive?", "who was here this morning?". Names are resolved against the tenant's enrolled people;
 * a name that matches nobody (or several people) is asked about, never guessed. The question's
 * time range is read by the ordinary interpreter on the question with the name replaced by
 * "anyone" ("was anyone here today?"), so every time phrase it knows works here too.
 */

export interface KnownPerson {
  id: string;
  name: string;
}

export type PeopleQuestion =
  /** `first`: "when did Aisha first show up": the earliest sighting is the answer */
  | { kind: 'person'; person: KnownPerson; rewritten: string; first?: boolean; count?: boolean }
  /** `moment`: "who was that at 22:40?": one moment, not a span (see answerWhoQuestion) */
  | { kind: 'who'; rewritten: string; moment?: boolean }
  /** "were there more unrecognised people than known ones today?" */
  | { kind: 'known_vs_unknown'; rewritten: string }
  | { kind: 'unknown_name'; reason: string }
  /** "who was the last person to leave?": one person picked by order, which no sighting names (refused) */
  | { kind: 'cannot'; reason: string };

/** A clock moment: "at 8:05", "at 22:40", "at 3pm" (a span is said with since/between/after…). */
const AT_CLOCK = /\bat\s+(\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?|noon|midnight)(?=\s|$)/;
const SPAN_WORDS = /\b(between|since|after|before|from|until|till|around|about|during)\b/;

/** "more unrecognised people than known ones", "fewer strangers than people we know". */
const KNOWN_VS_UNKNOWN =
  /\b(more|fewer|less)\b.*\b(unrecogni[sz]ed|unknown|strangers?|unfamiliar|recogni[sz]ed|known)\b.*\bthan\b.*\b(known|recogni[sz]ed|unrecogni[sz]ed|unknown|strangers?)\b(?:\s+(?:ones|people|persons|faces))?/;

/** Words that can sit where a name sits ("was anyone here", "is it busy") and are not names. */
const NOT_NAMES = new Set([
  'anyone',
  'anybody',
  'someone',
  'somebody',
  'everyone',
  'everybody',
  'nobody',
  'noone',
  'the',
  'a',
  'an',
  'there',
  'it',
  'he',
  'she',
  'they',
  'we',
  'you',
  'i',
  'me',
  'us',
  'them',
  'people',
  'person',
  'that',
  'this',
  'these',
  'those',
  'any',
  'some',
  'many',
  'much',
  'more',
  'most',
  'less',
  'fewer',
  'lots',
  'staff',
  'visitors',
  'visitor',
  'guests',
  'guest',
  'strangers',
  'stranger',
  'intruders',
  'intruder',
  'cars',
  'car',
  'vehicles',
  'vehicle',
  'traffic',
  'busy',
  'crowded',
  'empty',
  'quiet',
  'full',
  'here',
  'what',
  'who',
  'how',
  'when',
  'where',
  'why',
  'which',
  'unknown',
  'unrecognized',
  'unrecognised',
  'unfamiliar',
  'known',
  'recognized',
  'recognised',
  'my',
  'our',
  'your',
  'his',
  'her',
  'their',
  'its',
  'all',
  'each',
  'every',
  'no',
  'not',
  'ever',
  'just',
  'still',
  'already',
  'now',
  'today',
  'tonight',
  'yesterday',
  'recently',
  'lately',
  'cat',
  'cats',
  'dog',
  'dogs',
  'animals',
  'animal',
  'pet',
  'pets',
  'kids',
  'children',
  'delivery',
  'courier',
  'postman',
  'mailman',
  'loitering',
  'activity',
  'motion',
  'movement',
  'door',
  'lobby',
  'crowd',
]);

/** Where a name is asked about: "was X here", "has X been in", "when did X arrive", "did you see X". */
const NAME_SLOTS = [
  /^(?:was|were|is|has|had|did|does|have)\s+([a-z][a-z'-]*)\s+(?:[a-z'-]+\s+)?(?:here|in|around|about|at|by|over|come|came|coming|arrive|arrived|arriving|been|seen|show|showed|shown|stop|stopped|drop|dropped|leave|left|visit|visited|pass|passed|turn|turned|get|got|make|made|today|this|yet)\b/,
  /^when\s+(?:did|was|is|has|does)\s+([a-z][a-z'-]*)\s+(?:last\s+|first\s+)?(?:arrive|arrived|come|came|get|got|leave|left|seen|here|in|around|show|turn|stop|drop|visit|been|walk)\b/,
  /^(?:have|did|has)\s+(?:you|we|anyone|the\s+camera)\s+(?:seen|see|spotted|spot|noticed|notice)\s+([a-z][a-z'-]*)\b/,
];

/**
 * "who was the last person to leave", "who came in first": one person picked out by order. A
 * count or a track says when, never who; the answer would name whoever happens to be recognized
 * in the span, so it is refused with the questions that can be answered.
 */
const WHO_BY_ORDER =
  /^who\b.*\b(?:(last|first|latest|earliest|final)\s+(?:one|person|people|guy|man|woman|visitor|customer|staff|member|car|vehicle|driver|to|in|out|here)\b|(?:left|leave|arrived|arrive|came|come|got|went|locked|opened|closed)\b.*\b(last|first)\b)/;

const WHO =
  /^who(?:\s+(?:else|all))?\s+(?:was|were|is|has|had|came|come|comes|visited|showed|stopped|dropped|walked|arrived|got|entered|did\s+you\s+(?:see|recogni[sz]e))\b/;

/**
 * "who is the unrecognised visitor?", "who was that man?", "who's this guy": who a person
 * described is, their identity, not who was somewhere ("who is in the lobby", "who was here" are
 * lists, and "who was that at 22:40?" one moment, read above). A description is a determiner and
 * a word that is no place or time word ("that at the gate" is not one).
 */
const WHO_IS_DESCRIBED =
  /^who(?:'s|\s+(?:is|was|were|are))\s+((?:the|a|an|this|that|these|those)\s+(?!(?:at|in|on|by|near|outside|inside|around|here|there|just|now|today|yesterday|tonight|last|earlier)\b)[a-z].*)$/;

function words(text: string): string[] {
  // "Maria's" is Maria
  return (text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []).map((w) => w.replace(/'s$/, ''));
}

/** Is this word, asked about where a name goes, a name rather than an ordinary word? */
function looksLikeName(word: string, original: string): boolean {
  if (NOT_NAMES.has(word)) return false;
  // written with a capital inside the sentence: a name
  if (new RegExp(`(?<=\\S\\s+)${word[0].toUpperCase()}${word.slice(1)}\\b`).test(original)) return true;
  // lower case: a name when it is no English noun ("priya"), not when it is ("traffic")
  return getNounSenses(word).length === 0;
}

/** A question naming one enrolled person (or several it could be): undefined when it names none. */
function readNamedPerson(lower: string, people: readonly KnownPerson[]): PeopleQuestion | undefined {
  const tokens = words(lower);
  const matches = new Map<string, { person: KnownPerson; span: string }>();
  for (const person of people) {
    const parts = words(person.name);
    if (!parts.length) continue;
    const full = parts.join(' ');
    const joined = ` ${tokens.join(' ')} `;
    if (joined.includes(` ${full} `)) {
      matches.set(person.id, { person, span: full });
      continue;
    }
    const part = parts.find((p) => p.length >= 2 && !NOT_NAMES.has(p) && tokens.includes(p));
    if (part) matches.set(person.id, { person, span: part });
  }
  if (matches.size > 1) {
    // "Maria Santos" named in full picks her over another Maria; otherwise ask, never pick one
    const full = [...matches.values()].filter((m) => m.span === words(m.person.name).join(' '));
    if (full.length !== 1) {
      const names = [...matches.values()].map((m) => m.person.name).join(', ');
      return { kind: 'unknown_name', reason: `That could be ${names}: ask about one person, by full name.` };
    }
    matches.clear();
    matches.set(full[0].person.id, full[0]);
  }
  if (matches.size === 1) {
    const { person, span } = [...matches.values()][0];
    // "when did Aisha first show up": the earliest sighting in the range; the range is read without "first"
    const first = /\b(first|earliest)\b/.test(lower);
    const rewritten =
      lower
        .replace(new RegExp(`\\b${span}(?:'s)?\\b`), 'anyone')
        .replace(/\b(first|earliest)\b/g, ' ')
        .replace(/\s+/g, ' ')
        .trim() + '?';
    // "how many times did Anna pass the gate": a number, not a yes
    const count = /^how\s+(many|often)\b/.test(lower);
    return { kind: 'person', person, rewritten, ...(first ? { first } : {}), ...(count ? { count } : {}) };
  }
  return undefined;
}

/** "who was here?", "who left first?", "who is the man in the red coat?": undefined when not a who-question. */
function readWhoQuestion(lower: string): PeopleQuestion | undefined {
  const versus = KNOWN_VS_UNKNOWN.exec(lower);
  if (versus) {
    // the range is whatever follows the comparison ("… than known ones today" → today)
    const tail = lower.slice(versus.index + versus[0].length).trim();
    return { kind: 'known_vs_unknown', rewritten: `was anyone here${tail ? ` ${tail}` : ''}?` };
  }
  const byOrder = WHO_BY_ORDER.exec(lower);
  if (byOrder) {
    const which = byOrder[1] ?? byOrder[2];
    const rest = lower.replace(/^who\s+(?:was|were|is)\s+/, '').replace(/[?!.]+$/, '');
    return {
      kind: 'cannot',
      reason: `I can't tell who "${rest}" was: the cameras count and track people, and tell when the ${which} one came or went, but not who a person is unless face recognition names them. Ask e.g. "when did the ${which} person leave?" or "who was here last night?"`,
    };
  }
  const clock = AT_CLOCK.exec(lower);
  if (WHO.test(lower) && clock && !SPAN_WORDS.test(lower)) {
    // "who was that at the gate at 22:40 last night?", "who came in at 8:05?": the people there at
    // that moment; the day words around the clock time ("last night", "yesterday") are kept
    const dayWords = lower.match(/\b(today|yesterday|last night|this morning|this afternoon|this evening|tonight|on \w+day)\b/g) ?? [];
    return { kind: 'who', moment: true, rewritten: `was anyone here at ${clock[1]}${dayWords.length ? ` ${dayWords.join(' ')}` : ''}?` };
  }
  const identity = WHO_IS_DESCRIBED.exec(lower);
  if (identity) {
    const described = identity[1].trim();
    const unrecognized = /\b(?:unrecogni[sz]ed|unknown|unidentified|unfamiliar|strangers?)\b/.test(described);
    return {
      kind: 'cannot',
      reason: unrecognized
        ? `I can't say who "${described}" is: an unrecognized person is one face recognition could not match to anyone enrolled, and the cameras keep no other record of who someone is. I can tell when unrecognized people were seen and how many, e.g. "when was an unrecognized person last seen?" or "how many unrecognized people today?", or look at the recording.`
        : `I can't say who "${described}" is: the cameras count and track people, and name only those face recognition matches to someone enrolled, without telling which of them a description means. Ask e.g. "who is here now?" or "who was here this morning?" for the people recognized, or look at the recording.`,
    };
  }
  if (WHO.test(lower)) {
    // the same question about "anyone", for its time range: "who was here" → "was anyone here"
    const rest = lower.replace(/^who(?:\s+(?:else|all))?\s+/, '');
    const rewritten = /^(?:was|were|is|has|had)\b/.test(rest)
      ? rest.replace(/^(?:was|were|is|has|had)\b/, 'was anyone')
      : /^did\s+you\s+/.test(rest)
        ? rest.replace(/^did\s+you\s+(\w+)/, 'did you $1 anyone')
        : `did anyone ${rest}`;
    return { kind: 'who', rewritten: rewritten.replace(/\s+/g, ' ').trim() + '?' };
  }
  return undefined;
}

/** A name nobody enrolled has ("was Bob here?"), or null. */
function readUnknownName(lower: string, text: string, people: readonly KnownPerson[]): PeopleQuestion | null {
  for (const slot of NAME_SLOTS) {
    const m = slot.exec(lower);
    if (m && looksLikeName(m[1], text)) {
      const name = m[1][0].toUpperCase() + m[1].slice(1);
      const known = people.length
        ? ` Known people: ${people
            .slice(0, 10)
            .map((p) => p.name)
            .join(', ')}${people.length > 10 ? ', …' : ''}.`
        : ' Nobody is enrolled yet (POST /v1/people).';
      return { kind: 'unknown_name', reason: `I don't know anyone called ${name}.${known}` };
    }
  }
  return null;
}

/**
 * What a question asks about known people, or null when it names nobody and is not a "who"
 * question (the ordinary interpreter answers it). People are matched by full name or by any one
 * of their names (first name, surname), case-insensitively.
 */
export function readPeopleQuestion(query: string, people: readonly KnownPerson[]): PeopleQuestion | null {
  const text = query.trim().replace(/\s+/g, ' ');
  const lower = text.toLowerCase().replace(/[?!.]+$/, '');
  return readNamedPerson(lower, people) ?? readWhoQuestion(lower) ?? readUnknownName(lower, text, people);
}

interface Visit {
  trackKey: string;
  first: DetectionRecord;
  last: DetectionRecord;
  /** recognized as this person on any detection of the track */
  personId: string | null;
  unrecognized: boolean;
}

/** Person detections grouped by track: who each tracked person was, when first and last seen. */
function visitsOf(records: readonly DetectionRecord[], from: number, to: number): Visit[] {
  const byTrack = new Map<string, Visit>();
  for (const d of [...records].sort((a, b) => a.at - b.at)) {
    if (d.type !== 'person' || d.at < from || d.at > to) continue;
    const key = d.track_id ? `track:${d.track_id}` : `det:${d.id}`;
    let v = byTrack.get(key);
    if (!v) byTrack.set(key, (v = { trackKey: key, first: d, last: d, personId: null, unrecognized: false }));
    v.last = d;
    if (d.subtype === 'recognized' && d.person_id) v.personId = d.person_id;
    if (d.subtype === 'unrecognized') v.unrecognized = true;
  }
  return [...byTrack.values()];
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The answer to a question about one known person, from the scene's person detections. */
export function answerPersonQuestion(
  interp: Interpretation,
  person: KnownPerson,
  records: readonly DetectionRecord[],
  recognitionOn: boolean,
  first = false,
  count = false,
): QueryAnswer {
  const place = `the ${describeLocation(interp.location)}`;
  const at = (t: number) => formatMoment(t, interp.time_zone, interp.asked_at);
  const lookback = interp.aggregate === 'last_seen' || interp.aggregate === 'last_arrival' || interp.aggregate === 'last_departure';
  const visits = visitsOf(records, interp.from, interp.to).filter((v) => v.personId === person.id);
  const supporting = visits.flatMap((v) => (v.first.id === v.last.id ? [v.first] : [v.first, v.last])).sort((a, b) => b.at - a.at);
  // off now, but whoever was recognized while it was on still counts: say only what is true
  const off = recognitionOn
    ? ''
    : visits.length
      ? ' Face recognition is off for this organization now, so nobody is recognized any more (PATCH /v1/automation face_recognition).'
      : ' Face recognition is off for this organization, so nobody is recognized (PATCH /v1/automation face_recognition).';
  const base = { detections: supporting.slice(0, 50), crowd_density: 0, anomaly_flag: false };
  if (!visits.length) {
    const when = lookback ? 'in the last 30 days' : interp.range_label;
    const answer = lookback
      ? `${person.name} has not been recognized in ${place} ${when}.${off}`
      : `No, ${person.name} was not recognized in ${place} ${when}.${off}`;
    return { ...base, answer };
  }
  const latest = visits[visits.length - 1];
  if (interp.aggregate === 'last_departure') return { ...base, answer: `${person.name} was last recognized in ${place} at ${at(latest.last.at)}.` };
  if (lookback) return { ...base, answer: `${person.name} was last recognized in ${place} at ${at(latest.last.at)} (arrived ${at(latest.first.at)}).` };
  if (first) {
    const later = visits.length > 1 ? ` (${plural(visits.length - 1, 'more time', 'more times')} after that)` : '';
    return { ...base, answer: `${person.name} was first recognized in ${place} ${interp.range_label} at ${at(visits[0].first.at)}${later}.${off}` };
  }
  const times = visits.map((v) => at(v.first.at));
  const visitsText =
    visits.length === 1 ? `at ${times[0]}` : `${plural(visits.length, 'time', 'times')} (${times.slice(0, 5).join(', ')}${times.length > 5 ? ', …' : ''})`;
  if (count)
    return {
      ...base,
      answer: `${plural(visits.length, 'time', 'times')}: ${person.name} was recognized in ${place} ${interp.range_label} at ${times.slice(0, 5).join(', ')}${times.length > 5 ? ', …' : ''}.${off}`,
    };
  return { ...base, answer: `Yes, ${person.name} was recognized in ${place} ${interp.range_label}, ${visitsText}.${off}` };
}

/** "Who was here this morning?": the recognized people by name, then strangers and faces unseen. */
export function answerWhoQuestion(
  interp: Interpretation,
  people: readonly KnownPerson[],
  records: readonly DetectionRecord[],
  recognitionOn: boolean,
): QueryAnswer {
  const place = `the ${describeLocation(interp.location)}`;
  const at = (t: number) => formatMoment(t, interp.time_zone, interp.asked_at);
  const visits = visitsOf(records, interp.from, interp.to);
  const names = new Map(people.map((p) => [p.id, p.name]));
  const recognized = new Map<string, Visit[]>();
  for (const v of visits) if (v.personId) recognized.set(v.personId, [...(recognized.get(v.personId) ?? []), v]);
  const strangers = visits.filter((v) => !v.personId && v.unrecognized).length;
  const unseen = visits.filter((v) => !v.personId && !v.unrecognized).length;
  const base = {
    detections: visits
      .map((v) => v.first)
      .sort((a, b) => b.at - a.at)
      .slice(0, 50),
    crowd_density: 0,
    anomaly_flag: strangers > 0,
  };
  if (!visits.length) {
    // no tracked person is not nobody: the count may show people whose faces were never looked at
    const counted = records.filter((d) => d.type === 'person_count' && (d.value ?? 0) > 0 && d.at >= interp.from && d.at <= interp.to);
    if (counted.length > 0) {
      const most = Math.max(...counted.map((d) => d.value ?? 0));
      return {
        ...base,
        detections: [...counted].sort((a, b) => b.at - a.at).slice(0, 50),
        answer: `The count shows people in ${place} ${interp.range_label} (up to ${plural(most, 'person', 'people')} at once, the latest at ${at(Math.max(...counted.map((d) => d.at)))}), but none of them was tracked, so I cannot say who.`,
      };
    }
    return { ...base, answer: `Nobody was seen in ${place} ${interp.range_label}.` };
  }
  const parts: string[] = [];
  const known = [...recognized.entries()].map(
    ([id, vs]) => `${names.get(id) ?? `a person since erased (${id})`} (${vs.map((v) => at(v.first.at)).join(', ')})`,
  );
  if (known.length) parts.push(`recognized: ${known.join(', ')}`);
  if (strangers) parts.push(plural(strangers, 'unrecognized person', 'unrecognized people'));
  if (unseen) parts.push(`${plural(unseen, 'person', 'people')} whose face was not seen`);
  const off = recognitionOn
    ? ''
    : recognized.size || strangers
      ? ' Face recognition is off for this organization now; those faces were compared while it was on.'
      : ' Face recognition is off for this organization, so nobody is recognized.';
  return { ...base, answer: `In ${place} ${interp.range_label}: ${parts.join('; ')}.${off}` };
}

/** How close to a moment a sighting must be to count as "there at 22:40". */
const MOMENT_SLACK_MS = 2 * 60_000;

/**
 * "Who was that at the gate at 22:40?": the people there at that moment (a track whose first
 * sighting to last sighting plus dwell covers it, give or take two minutes). When all of them are
 * recognized or matched nobody enrolled, that is the answer. When someone's face was not seen,
 * nobody can say who it was: that is not an answer to "who", so `cannot` says so plainly and the
 * route refuses (422 face_not_seen) rather than answering a count (docs/decisions.md).
 */
export function answerWhoAtMoment(
  interp: Interpretation,
  people: readonly KnownPerson[],
  records: readonly DetectionRecord[],
  moment: number,
): { answer: QueryAnswer } | { cannot: string } {
  const place = `the ${describeLocation(interp.location)}`;
  const when = formatMoment(moment, interp.time_zone, interp.asked_at);
  const visits = visitsOf(records, moment - 60 * 60_000, moment + MOMENT_SLACK_MS).filter(
    (v) => v.first.at <= moment + MOMENT_SLACK_MS && v.last.at + (v.last.dwell_s ?? 0) * 1000 >= moment - MOMENT_SLACK_MS,
  );
  const base = { detections: visits.map((v) => v.first), crowd_density: 0, anomaly_flag: visits.some((v) => !v.personId && v.unrecognized) };
  if (!visits.length) return { answer: { ...base, answer: `Nobody was seen in ${place} at ${when}.` } };
  const unseen = visits.filter((v) => !v.personId && !v.unrecognized);
  if (unseen.length) {
    const who = unseen.length === 1 ? 'a person was seen' : `${unseen.length} people were seen`;
    return {
      cannot: `At ${when} in ${place} ${who} (from ${formatMoment(unseen[0].first.at, interp.time_zone, interp.asked_at)}), but the camera never saw ${unseen.length === 1 ? 'their face' : 'their faces'}, so nobody can say who it was. Look at the recording of that moment.`,
    };
  }
  const names = new Map(people.map((p) => [p.id, p.name]));
  const parts = visits.map((v) =>
    v.personId ? `${names.get(v.personId) ?? 'a person since erased'} (recognized)` : 'someone whose face matched nobody enrolled',
  );
  return { answer: { ...base, answer: `In ${place} at ${when}: ${parts.join(', ')}.` } };
}

/** "Were there more unrecognised people than known ones today?": strangers' tracks against the known people seen. */
export function answerKnownVsUnknown(interp: Interpretation, people: readonly KnownPerson[], records: readonly DetectionRecord[], asked: string): QueryAnswer {
  const place = `the ${describeLocation(interp.location)}`;
  const visits = visitsOf(records, interp.from, interp.to);
  const known = new Set(visits.filter((v) => v.personId).map((v) => v.personId!));
  const strangers = visits.filter((v) => !v.personId && v.unrecognized).length;
  const unseen = visits.filter((v) => !v.personId && !v.unrecognized).length;
  const names = new Map(people.map((p) => [p.id, p.name]));
  // which side the question puts first: "more unrecognised than known" or "more known than strangers"
  const m = /\b(more|fewer|less)\b.*?\b(unrecogni[sz]ed|unknown|strangers?|unfamiliar|recogni[sz]ed|known)\b/.exec(asked.toLowerCase());
  const strangersFirst = !m || !/^(recogni[sz]ed|known)$/.test(m[2]);
  const [a, b] = strangersFirst ? [strangers, known.size] : [known.size, strangers];
  const yes = m?.[1] === 'more' ? a > b : a < b;
  const knownText = known.size
    ? `${plural(known.size, 'known person', 'known people')} (${[...known].map((id) => names.get(id) ?? 'a person since erased').join(', ')})`
    : 'no known people';
  const unseenText = unseen ? `, and ${plural(unseen, 'person', 'people')} whose face was not seen` : '';
  return {
    detections: visits
      .map((v) => v.first)
      .sort((x, y) => y.at - x.at)
      .slice(0, 50),
    crowd_density: 0,
    anomaly_flag: strangers > 0,
    answer: `${yes ? 'Yes' : 'No'}, ${plural(strangers, 'unrecognized person', 'unrecognized people')} against ${knownText} in ${place} ${interp.range_label}${unseenText}.`,
  };
}
