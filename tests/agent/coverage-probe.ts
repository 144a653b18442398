/**
 * The planted-word coverage probe (docs/decisions.md, "Coverage probe"): household requests the agent acts on
 * correctly, each rewritten with an unknown or un-actionable part planted in one slot (the verb, the object, the
 * start or end of a time, a stray number, a second request outside the agent's tools, a reason naming another place
 * of the home, negation, quoted text). Every slot carries its allowed outcome: most must change nothing; a few
 * (a politeness word, a reason naming no place) may act as the original did.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { runPlan } from '../../src/home/agent/plan-executor.ts';
import { loadHeldoutCases, loadHeldoutContexts, scoreHousehold, STATE_TOOLS } from '../heldout/household-heldout.ts';
import { loadCases, loadContexts } from './corpus-cases.ts';
import { HouseholdSimulator } from './household-simulator.ts';

/** What a planted variant may do: change nothing, or change nothing / exactly what the original changed. */
export type Allowed = 'no-change' | 'same-or-none' | 'none-or-both';

export interface Source {
  id: string;
  message: string;
  ctx: HouseholdContext;
}
export interface Variant {
  source: Source;
  slot: string;
  message: string;
  allowed: Allowed;
  /** For 'none-or-both': the ids of the place joined on, one of which a change must name (never the first place alone). */
  joined?: string[];
}
export interface Outcome {
  variant: Variant;
  changes: { tool: string; args: Record<string, unknown> }[];
  reply: string;
  ok: boolean;
}

/** A small deterministic generator (mulberry32), so the probe draws the same sentences and words on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const heldoutDir = join(import.meta.dirname, '..', 'heldout');

async function heldoutSources(): Promise<Source[]> {
  const out: Source[] = [];
  // (the rounds up to M: a later round joining the folder must not change what the probe draws and so its ceilings)
  const files = readdirSync(heldoutDir).filter((f) => /^(round-[a-m]-)?household\.json$/.test(f));
  for (const f of files.sort()) {
    const contexts = loadHeldoutContexts(join(heldoutDir, f.replace('household.json', 'household-contexts.json')));
    const cases = loadHeldoutCases(join(heldoutDir, f)).filter((c) => c.turns.length === 1 && c.turns[0].expect.outcome === 'act');
    const results = await scoreHousehold(cases, contexts);
    for (const [i, c] of cases.entries()) {
      if (results[i].score === 'correct')
        out.push({ id: `${f.replace('-household.json', '')}/${c.id}`, message: c.turns[0].message, ctx: contexts[c.context] });
    }
  }
  return out;
}

function corpusSources(): Source[] {
  const contexts = loadContexts();
  return loadCases()
    .filter((c) => c.turns.length === 1 && c.turns[0].expect.calls.length > 0 && !c.turns[0].expect.clarify && !c.turns[0].expect.refusals)
    .map((c) => ({ id: `corpus/${c.id}`, message: c.turns[0].message, ctx: contexts[c.context] }));
}

async function run(message: string, ctx: HouseholdContext): Promise<{ changes: Outcome['changes']; reply: string; asked: boolean }> {
  const household = new HouseholdSimulator(ctx);
  const plan = planOffline(message, household.ctx);
  const result = await runPlan(plan, household);
  return { changes: household.calls.filter((c) => STATE_TOOLS.has(c.tool)), reply: result.reply, asked: Boolean(plan.clarification) };
}

/** About `count` acting sentences, drawn with a fixed seed from the corpus and the household held-out rounds up to M. */
export async function drawSources(count: number, seed = 20261128): Promise<Source[]> {
  const all = [...corpusSources(), ...(await heldoutSources())];
  const rand = seeded(seed);
  const shuffled = all
    .map((s) => ({ s, k: rand() }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.s);
  const picked: Source[] = [];
  const seen = new Set<string>();
  for (const s of shuffled) {
    if (picked.length >= count || seen.has(s.message.toLowerCase())) continue;
    seen.add(s.message.toLowerCase());
    // the original must act (corpus cases are judged by their own file; here only "it changes the household" matters)
    if ((await run(s.message, s.ctx)).changes.length > 0) picked.push(s);
  }
  return picked;
}

/** The committed draw (coverage-probe-sources.json): the sentences the ceilings were counted on, so a fix that makes another sentence act, or a round joining tests/heldout, leaves the sample as it is. */
export const SOURCES_FILE = join(import.meta.dirname, 'coverage-probe-sources.json');

/** The committed sentences, each read back from its own file and context by its id ("corpus/n18", "round-c/c050", "household.json/h075"). */
export function loadSources(): Source[] {
  const ids: string[] = JSON.parse(readFileSync(SOURCES_FILE, 'utf8'));
  const corpusContexts = loadContexts();
  const corpus = new Map(loadCases().map((c) => [c.id, c]));
  const files = new Map<string, { cases: Map<string, { message: string; context: string }>; contexts: Record<string, HouseholdContext> }>();
  const heldout = (name: string) => {
    const f = name === 'household.json' ? name : `${name}-household.json`;
    if (!files.has(f)) {
      const cases = loadHeldoutCases(join(heldoutDir, f)).map((c) => [c.id, { message: c.turns[0].message, context: c.context }] as const);
      files.set(f, { cases: new Map(cases), contexts: loadHeldoutContexts(join(heldoutDir, f.replace('household.json', 'household-contexts.json'))) });
    }
    return files.get(f)!;
  };
  return ids.map((id) => {
    const [from, caseId] = id.split('/');
    if (from === 'corpus') {
      const c = corpus.get(caseId)!;
      return { id, message: c.turns[0].message, ctx: corpusContexts[c.context] };
    }
    const file = heldout(from);
    const c = file.cases.get(caseId)!;
    return { id, message: c.message, ctx: file.contexts[c.context] };
  });
}

const WATCH_VERB =
  /^((?:please |hey,? |ok,? |can you |could you |would you )*)(watch|keep an eye on|keep watch on|keep watch over|monitor|guard|mute|silence)\b/i;
const END_TIME = /\b(till|until|til|to)\s+((?:\d{1,2}(?::\d{2})?\s*(?:am|pm)?|noon|midnight|sunrise|sunset|dawn|dusk|morning)\b)/i;
const START_TIME = /\bfrom\s+((?:\d{1,2}(?::\d{2})?\s*(?:am|pm)?|noon|midnight|sunrise|sunset|dawn|dusk)\b)/i;

function places(ctx: HouseholdContext): string[] {
  const names = [...ctx.rooms.map((r) => r.name), ...ctx.sensors.map((s) => s.name)].map((n) => n.toLowerCase());
  return [...new Set(names)].sort((a, b) => b.length - a.length);
}

function firstPlace(message: string, ctx: HouseholdContext): { at: number; name: string } | undefined {
  const lower = message.toLowerCase();
  let best: { at: number; name: string } | undefined;
  for (const name of places(ctx)) {
    const m = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).exec(lower);
    if (m && (!best || m.index < best.at)) best = { at: m.index, name };
  }
  return best;
}

/** A room of the home the message does not name, for "…, the attic keeps creaking". */
function otherRoom(message: string, ctx: HouseholdContext, rand: () => number): string | undefined {
  const lower = message.toLowerCase();
  // (not one the message names, even misspelt: "basment" is the basement)
  const near = (w: string) => lower.split(/\W+/).some((x) => x.length > 3 && x.slice(0, 3) === w.slice(0, 3) && Math.abs(x.length - w.length) <= 2);
  const rooms = ctx.rooms.map((r) => r.name.toLowerCase()).filter((n) => !lower.includes(n) && !n.split(/\s+/).some((w) => lower.includes(w) || near(w)));
  return rooms.length ? rooms[Math.floor(rand() * rooms.length)] : undefined;
}

/** The planted variants of one sentence, slot by slot, each with its allowed outcome. */
export function plant(source: Source, rand: () => number): Variant[] {
  const m = source.message.trim().replace(/[.!?]+$/, '');
  const out: Variant[] = [];
  const add = (slot: string, message: string, allowed: Allowed = 'no-change') => out.push({ source, slot, message, allowed });
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const verb = WATCH_VERB.exec(m);
  if (verb) {
    for (const v of ['flurb', pick(['heat', 'paint', 'feed', 'water'])]) add('verb', m.replace(WATCH_VERB, `$1${v}`));
  }
  const place = firstPlace(m, source.ctx);
  if (place) {
    const end = place.at + place.name.length;
    add('object', `${m.slice(0, end)} and the zorble${m.slice(end)}`);
    add('quoted', `${m.slice(0, end)} "zorble"${m.slice(end)}`);
  }
  const start = START_TIME.exec(m);
  if (start) add('start', m.replace(START_TIME, 'from blorp'));
  const endTime = END_TIME.exec(m);
  if (endTime) add('end', m.replace(END_TIME, `$1 ${pick(['flamingo', 'the kettle boils', 'the milkman comes'])}`));
  add('end-event', `${m} ${pick(['till the milkman comes', 'until the kettle boils', 'till flamingo'])}`);
  add('start-event', `${m} ${pick(['after the match', 'when the milkman comes', 'once the kettle boils'])}`);
  add('number', `${m} 37`);
  add('second-request', `${m} ${pick(['and order a pizza', 'and tell my wife', 'and call the plumber', 'and book a taxi'])}`);
  const room = otherRoom(m, source.ctx, rand);
  if (room) add('reason-place', `${m}, the ${room} ${pick(['keeps creaking', 'has been making noises', 'door was left open'])}`);
  add('reason-none', `${m}, ${pick(["we've had some trouble lately", "I'm a bit nervous", 'just to be safe'])}`, 'same-or-none');
  // (only a request that opens with its verb is negated: "don't watch the garage tonight", never "don't we're home early")
  if (verb) add('negation', `don't ${m.replace(WATCH_VERB, '$2').replace(/^(can|could|would) you\s+/i, '')}`);
  // a quote after the user's own complete request is content, never an instruction (docs/decisions.md, "Round G: intent"): the request may stand
  add('quoted-after', `${m} "flurb the porch"`, 'same-or-none');
  add('politeness', `please ${m.replace(/^please\s+/i, '')}`, 'same-or-none');
  add('politeness', `${m}, thanks`, 'same-or-none');
  out.push(...plantBlindClasses(source, m, verb, place));
  out.push(...plantRoundTClasses(source, m, verb, place));
  return out;
}

/** A number from a sentence, so the slots added later draw their words without moving the draws of the slots above. */
function hashOf(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/**
 * Slots from the failure classes blind writers found (docs/decisions.md, "Before round R: coverage probe"): a second
 * place joined on with a filler ("watch the garage and uh the nursery tonight": both or a question, never the first
 * alone), a clock with a unit nobody knows ("from 7 bells"), and a word no lexicon knows before the place ("watch the
 * glorpy garage").
 */
function plantBlindClasses(source: Source, m: string, verb: RegExpExecArray | null, place: { at: number; name: string } | undefined): Variant[] {
  const out: Variant[] = [];
  const rand = seeded(hashOf(source.message));
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const room = otherRoom(m, source.ctx, rand);
  if (verb && place && room) {
    const end = place.at + place.name.length;
    const joined = [room, ...source.ctx.sensors.filter((x) => x.room.toLowerCase() === room).map((x) => x.id)];
    const message = `${m.slice(0, end)} and ${pick(['uh', 'um', 'er', 'like'])} the ${room}${m.slice(end)}`;
    out.push({ source, slot: 'joined-filler', message, allowed: 'none-or-both', joined });
  }
  const unit = pick(['bells', 'ticks', 'glorps']);
  if (START_TIME.test(m)) out.push({ source, slot: 'clock-unit', message: m.replace(START_TIME, `from 7 ${unit}`), allowed: 'no-change' });
  else if (verb) out.push({ source, slot: 'clock-unit', message: `${m} from 7 ${unit}`, allowed: 'no-change' });
  if (verb && place) {
    const word = pick(['glorpy', 'snarfed', 'blenky']);
    out.push({ source, slot: 'unknown-before-place', message: `${m.slice(0, place.at)}${word} ${m.slice(place.at)}`, allowed: 'no-change' });
  }
  return out;
}

/**
 * Slots from the classes blind writers found before round T (docs/decisions.md, "Before round T: probe leaks"): an
 * aside with a word no lexicon knows between the verb and the place ("watch, zorbly enough, the garage tonight"), a
 * second part after "and" whose verb no lexicon knows ("… and glorp the kitchen"), and a trailing question the agent
 * cannot answer ("…, can you blenk it?"). Each draws from its own generator, so the slots above keep their words.
 */
function plantRoundTClasses(source: Source, m: string, verb: RegExpExecArray | null, place: { at: number; name: string } | undefined): Variant[] {
  const out: Variant[] = [];
  const rand = seeded(hashOf(source.message) ^ 0x7a11);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  if (verb && place && place.at >= verb[0].length) {
    const aside = pick(['zorbly enough', 'if the glorp allows', 'blenk or no blenk']);
    const at = m.lastIndexOf(' the ', place.at) >= verb[0].length ? m.lastIndexOf(' the ', place.at) : place.at - 1;
    out.push({ source, slot: 'aside', message: `${m.slice(0, at)}, ${aside},${m.slice(at)}`, allowed: 'no-change' });
  }
  const room = otherRoom(m, source.ctx, rand);
  if (room) out.push({ source, slot: 'and-unknown-verb', message: `${m} and ${pick(['glorp', 'snarf', 'frobble'])} the ${room}`, allowed: 'no-change' });
  out.push({
    source,
    slot: 'trailing-question',
    message: `${m}, ${pick(['can you blenk it?', 'could you frobble them?', 'will you zorp it after?'])}`,
    allowed: 'no-change',
  });
  return out;
}

function sameChanges(a: Outcome['changes'], b: Outcome['changes']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Runs every variant the way the held-out scorer does and says whether its outcome is allowed. */
export async function probe(sources: Source[], seed = 20261128): Promise<Outcome[]> {
  const rand = seeded(seed ^ 0x5eed);
  const outcomes: Outcome[] = [];
  for (const source of sources) {
    const original = await run(source.message, source.ctx);
    for (const variant of plant(source, rand)) {
      const { changes, reply } = await run(variant.message, source.ctx);
      const both = variant.allowed === 'none-or-both' && variant.joined!.some((id) => JSON.stringify(changes).toLowerCase().includes(id.toLowerCase()));
      const ok = changes.length === 0 || both || (variant.allowed === 'same-or-none' && sameChanges(changes, original.changes));
      outcomes.push({ variant, changes, reply, ok });
    }
  }
  return outcomes;
}
