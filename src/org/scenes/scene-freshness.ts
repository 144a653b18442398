import { formatMoment, sayAgo, toIso } from '../../platform/time/index.ts';

/**
 * How fresh a scene's counts are (docs/decisions.md, "Freshness"): every read, query answer, wall
 * card and household reply that states a present count says when the count is from (`as_of`) and
 * whether a source of the scene is live. A scene with no live source for longer than its sources'
 * silence threshold is *stale*: present-tense questions are answered with the time of its last
 * reading, never "now".
 */

/**
 * A source that sends nothing for this long is offline: the same 30 s after which a camera that
 * lost its feed turns `offline` and a phone that stopped pushing frames does
 * (src/ingest/video/ffmpeg-frame-source.ts `offlineAfterMs`, video-ingest.ts `silenceMs`).
 */
export const SOURCE_SILENCE_MS = 30_000;

/** What freshness needs of one of the scene's streams (its row: status and last frame as written by its ingest). */
export interface FreshnessSource {
  status: string;
  last_frame_at: string | null;
  source_type: string;
}

export interface SceneFreshness {
  /** when the stated counts are from: now while a source is live, else the last reading (null: none yet) */
  asOf: number | null;
  /** at least one of the scene's streams is live */
  sourcesLive: boolean;
  /** no source live for longer than the silence threshold: the counts are the last reading, not the present */
  stale: boolean;
  /** the scene's streams by status, for saying why */
  sources: FreshnessSource[];
}

/** The freshness of a scene's counts at `now`, from its streams and its last detection. */
export function sceneFreshness(input: {
  now: number;
  lastDetectionAt: number | null;
  sources: readonly FreshnessSource[];
  silenceMs?: number;
}): SceneFreshness {
  const silence = input.silenceMs ?? SOURCE_SILENCE_MS;
  const sourcesLive = input.sources.some((s) => s.status === 'live');
  let last = input.lastDetectionAt;
  for (const s of input.sources) {
    const at = s.last_frame_at ? Date.parse(s.last_frame_at) : NaN;
    if (Number.isFinite(at) && (last === null || at > last)) last = at;
  }
  const asOf = sourcesLive ? input.now : last;
  const stale = !sourcesLive && (asOf === null || input.now - asOf >= silence);
  return { asOf, sourcesLive, stale, sources: [...input.sources] };
}

/** Several scenes together (a household room's cameras): live if any is, as of the latest reading, stale if every one is. */
export function mergeFreshness(all: readonly SceneFreshness[]): SceneFreshness {
  const live = all.filter((f) => f.sourcesLive);
  const known = all.map((f) => f.asOf).filter((a): a is number => a !== null);
  return {
    asOf: live.length ? live[0].asOf : known.length ? Math.max(...known) : null,
    sourcesLive: live.length > 0,
    stale: all.every((f) => f.stale),
    sources: all.flatMap((f) => f.sources),
  };
}

/** The fields every scene read, query answer and reply that states a present count carries. */
export function freshnessFields(f: SceneFreshness): { as_of: string | null; sources_live: boolean; stale: boolean } {
  return { as_of: f.asOf === null ? null : toIso(f.asOf), sources_live: f.sourcesLive, stale: f.stale };
}

const SOURCE_NOUN: Record<string, [string, string]> = {
  rtsp: ['camera', 'cameras'],
  http: ['camera', 'cameras'],
  webrtc: ['camera', 'cameras'],
  mobile: ['phone', 'phones'],
  sandbox: ['simulated camera', 'simulated cameras'],
};

/** "the camera is offline", "the 2 cameras are offline", "the camera has not connected yet", "it has no cameras". */
export function whySilent(sources: readonly FreshnessSource[]): string {
  if (sources.length === 0) return 'it has no cameras';
  const kinds = new Set(sources.map((s) => s.source_type));
  const [one, many] = kinds.size === 1 ? (SOURCE_NOUN[[...kinds][0]] ?? ['source', 'sources']) : ['source', 'sources'];
  const statuses = new Set(sources.map((s) => s.status));
  const state = statuses.size === 1 ? [...statuses][0] : 'offline';
  const plural = sources.length > 1;
  const subject = plural ? `the ${sources.length} ${many}` : `the ${one}`;
  if (state === 'connecting') return `${subject} ${plural ? 'have' : 'has'} not connected yet`;
  if (state === 'reconnecting') return `${subject} ${plural ? 'are' : 'is'} reconnecting`;
  return `${subject} ${plural ? 'are' : 'is'} offline`;
}

/**
 * A present-tense answer for a stale scene: "The last reading from the north gate, 15 minutes ago
 * (10:02), showed 6 people; the camera is offline." `counts` are what the scene held at that reading.
 */
export function staleSentence(input: {
  freshness: SceneFreshness;
  now: number;
  timeZone: string;
  place: string;
  counts: { people?: number; vehicles?: number };
}): string {
  const { freshness: f, now, place } = input;
  const why = whySilent(f.sources);
  if (f.asOf === null) return `There is no reading from ${place} yet: ${why}.`;
  const parts: string[] = [];
  if (input.counts.people !== undefined) parts.push(countOf(input.counts.people, 'person', 'people'));
  if (input.counts.vehicles !== undefined) parts.push(countOf(input.counts.vehicles, 'vehicle', 'vehicles'));
  const showed = parts.length ? parts.join(' and ') : 'what it showed';
  return `The last reading from ${place}, ${sayAgo(now - f.asOf)} (${formatMoment(f.asOf, input.timeZone, now)}), showed ${showed}; ${why}.`;
}

function countOf(n: number, one: string, many: string): string {
  return n === 0 ? `no ${many}` : n === 1 ? `1 ${one}` : `${n} ${many}`;
}

/** Words by which an answer states the present: "17 people are in the hall now", "currently", "still there", "no stay is going on". */
const PRESENT_CLAIM = /\b(?:now|currently|current|at the moment|at present|still|going on)\b/i;

/**
 * An answer about a range that ends when it was asked ("when was someone last seen?", "how long has
 * he been here?") which states the present: on a stale scene it is replaced like a question about
 * now, since an offline camera's last reading is never current (docs/decisions.md, "Round N: scene questions").
 */
export function claimsPresent(interp: { to: number; asked_at: number }, answer: string): boolean {
  return Math.abs(interp.to - interp.asked_at) < 60_000 && PRESENT_CLAIM.test(answer);
}

/**
 * A stale scene's answer about a range that runs past its last reading (docs/decisions.md, "Round N:
 * scene questions"): `after` when the whole range is after it, so nothing said of it is known
 * ("anyone loitering?" over the last 15 minutes of an offline camera), `across` when part of it is.
 */
export function staleRange(f: SceneFreshness, interp: { from: number; to: number }): 'after' | 'across' | undefined {
  if (!f.stale || f.asOf === null || interp.to <= f.asOf) return undefined;
  return interp.from >= f.asOf ? 'after' : 'across';
}

/** "Nothing after 13:47 (78 minutes ago) is known: the camera is offline." */
export function staleRangeNote(f: SceneFreshness, now: number, timeZone: string): string {
  if (f.asOf === null) return `Nothing is known: ${whySilent(f.sources)}.`;
  return `Nothing after ${formatMoment(f.asOf, timeZone, now)} (${sayAgo(now - f.asOf)}) is known: ${whySilent(f.sources)}.`;
}

/** A question about the present moment (no time phrase, a range of one instant ending when it was asked). */
export function asksAboutNow(interp: { from: number; to: number; asked_at: number; time_phrase?: string }): boolean {
  return interp.from === interp.to && !interp.time_phrase && Math.abs(interp.to - interp.asked_at) < 60_000;
}
