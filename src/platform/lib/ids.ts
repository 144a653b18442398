import { monotonicFactory } from 'ulid';
import { takeRandomFraction } from './random-pool.ts';

/** Prefixed, time-sortable ids (DESIGN.md "IDs"): `<prefix>_<ULID>`. */
export const ID_PREFIXES = [
  'conv', 'msg', 'wat', 'evt', 'stream', 'scene', 'det', 'incident', 'alert', 'rule', 'rsp', 'prot', 'ptype',
  'whk', 'dlv', 'aud', 'org', 'hh', 'key', 'room', 'bnd', 'note', 'req',
  'snap', // detection snapshots (issue 6)
  'ackp', // signed audit checkpoints (issue 9)
  'whip', // WHIP publish sessions (issue 15)
  'csn', // web console sessions (issue 13)
  'person', 'face', // known people and their enrolled faces (issue 14)
  'sjob', // durable scheduled jobs (issue 12 §4)
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/**
 * ulid's default PRNG asks the OS for one random byte per character (16 calls per id), which was
 * 5% of an authenticated read's CPU (issue 16 §4): the same CSPRNG bytes come from a pool. A byte
 * / 256 maps uniformly onto the 32 base32 characters.
 */
const nextUlid = monotonicFactory(takeRandomFraction);

export function newId(prefix: IdPrefix, at?: number): string {
  return `${prefix}_${nextUlid(at).toLowerCase()}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && id.length === prefix.length + 27;
}
