/**
 * Questions about the counted kinds of the table of detection kinds that have no metric of their
 * own here (bicycles, …; vehicles and animals have theirs): "how many bicycles are there?", "how
 * many bikes were here at 9:30?", "any bicycles today?", "most bicycles since 9am?". The words
 * and the nouns of the answer are the table's (platform/kinds; docs/decisions.md, 'One table of
 * detection kinds'), so a kind added there is asked about here without a change.
 */
import type { DetectionRecord } from '../../detections/index.ts';
import { KIND_WORDS, kindOf, type DetectionKind } from '../../../platform/kinds/index.ts';
import type { WordRole } from './query-vocabulary.ts';
import type { Aggregate, Interpretation, SceneSnapshot } from './query.types.ts';

/** The roles a question about a counted kind may carry besides its noun and the time; anything else is refused. */
const ASKS_UNDERSTOOD: ReadonlySet<WordRole> = new Set<WordRole>([
  'objects',
  'count',
  'current',
  'past',
  'presence',
  'peak',
  'place',
  'named_place',
  'filler',
  'any_point',
  'command',
  'first',
  'last',
]);

/** The kind the question names, with its nouns; refuses two kinds at once or a kind with people, vehicles or animals. */
export function interpretKindQuestion(
  tokens: ReadonlyArray<{ word: string; roles: ReadonlySet<WordRole> }>,
  roles: ReadonlySet<WordRole>,
  range: { moment: boolean },
  refuse: (reason: string) => never,
): Pick<Interpretation, 'metric' | 'aggregate' | 'yes_no' | 'kind'> {
  const kinds = new Set(
    tokens
      .filter((t) => t.roles.has('objects'))
      .map((t) => KIND_WORDS[t.word])
      .filter(Boolean),
  );
  if (kinds.size !== 1) refuse(`The question names ${[...kinds].map((k) => kindOf(k)?.words?.plural ?? k).join(' and ')}; ask about one at a time.`);
  const kind = kindOf([...kinds][0]) as DetectionKind;
  const many = kind.words?.plural ?? kind.type;
  if (['people', 'vehicles', 'animals', 'crowd'].some((r) => roles.has(r as WordRole))) {
    refuse(`The question asks about ${many} and something else together; ask about one at a time, e.g. "how many ${many} are there?"`);
  }
  const other = [...roles].filter((r) => !ASKS_UNDERSTOOD.has(r));
  if (other.length > 0) {
    refuse(
      `For ${many} I can tell how many there are (now or at a time), the most at once over a span, and whether any were seen; ask e.g. "how many ${many} are there?" or "any ${many} today?"`,
    );
  }
  const sighting = kindSighting(roles, refuse);
  if (sighting) return { metric: 'objects', aggregate: sighting, yes_no: false, kind: kind.type };
  // a moment: how many then; a span: the most at once (and whether any), "any …" a yes or no
  const aggregate: Aggregate = range.moment ? 'current' : roles.has('presence') && !roles.has('count') ? 'presence' : 'peak';
  return { metric: 'objects', aggregate, yes_no: aggregate === 'presence', kind: kind.type };
}

/**
 * "when was the first bike seen today?", "last time a bicycle was seen": the first or last sighting
 * of the kind, as for people and vehicles (a count reading above zero); undefined for anything else.
 */
export function kindSighting(roles: ReadonlySet<WordRole>, refuse: (reason: string) => never): 'first_seen' | 'last_seen' | undefined {
  if (roles.has('first') && roles.has('last')) refuse('The question asks for the first and the last at once; ask for one of them.');
  if (!roles.has('first') && !roles.has('last')) return undefined;
  if (roles.has('count') || roles.has('peak')) refuse('The question asks for a count and a sighting at once; ask for one of them.');
  return roles.has('first') ? 'first_seen' : 'last_seen';
}

/** The first or last reading above zero of the kind in the span, said with its time. */
function answerKindSighting(
  interp: Interpretation,
  readings: readonly DetectionRecord[],
  [one, many]: [string, string],
  p: Phrasing,
): { answer: string; supporting: DetectionRecord[] } {
  const seen = readings.filter((d) => (d.count ?? 0) > 0 && d.at >= interp.from && d.at <= interp.to);
  const hit = interp.aggregate === 'first_seen' ? seen[0] : seen.at(-1);
  if (!hit) return { answer: `No ${many} were seen in ${p.place} ${p.when}.`, supporting: [] };
  const which = interp.aggregate === 'first_seen' ? 'first' : 'last';
  const n = hit.count ?? 0;
  return {
    answer: `A ${one} was ${which} seen in ${p.place} ${p.when} at ${p.moment(hit.at)} (${n} ${n === 1 ? one : many} in that reading).`,
    supporting: [hit],
  };
}

/** "bicycle count at 10:14", "peak bicycle count from 09:00 to 10:14", "whether any bicycles were seen …". */
export function describeKindQuestion(interp: Pick<Interpretation, 'aggregate' | 'kind'>): string {
  const kind = kindOf(interp.kind ?? '');
  const one = kind?.words?.singular ?? interp.kind;
  const many = kind?.words?.plural ?? interp.kind;
  if (interp.aggregate === 'first_seen' || interp.aggregate === 'last_seen') return `${interp.aggregate === 'first_seen' ? 'first' : 'last'} ${one} seen`;
  return interp.aggregate === 'current' ? `${one} count` : interp.aggregate === 'presence' ? `whether any ${many} were seen` : `peak ${one} count`;
}

/** The singular and plural of the counted kind asked about ("bicycle", "bicycles"). */
export function kindNouns(interp: Pick<Interpretation, 'kind'>): [string, string] {
  const kind = kindOf(interp.kind ?? '');
  return [kind?.words?.singular ?? String(interp.kind), kind?.words?.plural ?? String(interp.kind)];
}

interface Phrasing {
  place: string;
  when: string;
  moment: (t: number) => string;
  isNow: boolean;
}

/** The answer to a question interpretKindQuestion understood, from the kind's count readings (detections ascending by time). */
export function answerKindQuestion(
  interp: Interpretation,
  detections: readonly DetectionRecord[],
  scene: SceneSnapshot,
  p: Phrasing,
): { answer: string; supporting: DetectionRecord[] } {
  const kind = kindOf(interp.kind ?? '');
  const one = kind?.words?.singular ?? String(interp.kind);
  const many = kind?.words?.plural ?? String(interp.kind);
  const count = (n: number) => `${n} ${n === 1 ? one : many}`;
  const readings = detections.filter((d) => d.type === interp.kind && typeof d.count === 'number').sort((a, b) => a.at - b.at);
  const at = (t: number) => readings.filter((d) => d.at <= t).at(-1);
  if (interp.aggregate === 'first_seen' || interp.aggregate === 'last_seen') return answerKindSighting(interp, readings, [one, many], p);

  if (interp.aggregate === 'current') {
    const reading = at(interp.to);
    const value = p.isNow ? (scene.counts?.[interp.kind ?? ''] ?? reading?.count ?? 0) : reading?.count;
    if (value == null) return { answer: `There is no ${one} count for ${p.place} ${p.when}: no readings by then.`, supporting: [] };
    const verb = p.isNow ? (value === 1 ? 'is' : 'are') : value === 1 ? 'was' : 'were';
    // none is said as a number too ("0 bicycles"), as counts are (docs/decisions.md, "Round K: scene questions")
    const sentence = `there ${value === 0 ? (p.isNow ? 'are' : 'were') : verb} ${count(value)} in ${p.place} ${p.when}.`;
    const answer = interp.yes_no ? `${value > 0 ? 'Yes' : 'No'}, ${sentence}` : `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}`;
    return { answer, supporting: reading ? [reading] : [] };
  }
  // a span: the reading in force at its start and every reading inside it
  const start = at(interp.from);
  const span = [...(start ? [start] : []), ...readings.filter((d) => d.at > interp.from && d.at <= interp.to)];
  const peak = span.reduce<DetectionRecord | undefined>((best, d) => (best === undefined || (d.count ?? 0) > (best.count ?? 0) ? d : best), undefined);
  const most = peak?.count ?? 0;
  if (interp.aggregate === 'presence') {
    if (most === 0) return { answer: `No, no ${many} were seen in ${p.place} ${p.when}.`, supporting: span.slice(-1) };
    return {
      answer: `Yes, ${count(most)} at most at once in ${p.place} ${p.when}, first at ${p.moment(span.find((d) => (d.count ?? 0) > 0)!.at)}.`,
      supporting: [peak!],
    };
  }
  if (!peak) return { answer: `There is no ${one} count for ${p.place} ${p.when}: no readings by then.`, supporting: [] };
  if (most === 0) return { answer: `There were no ${many} in ${p.place} ${p.when} (0 at most at once).`, supporting: [peak] };
  return { answer: `The most ${many} at once in ${p.place} ${p.when} was ${most}, at ${p.moment(Math.max(peak.at, interp.from))}.`, supporting: [peak] };
}
