import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/** Prefixed, time-sortable ids (DESIGN.md "IDs"): `<prefix>_<ULID>`. */
export const ID_PREFIXES = [
  'conv', 'msg', 'wat', 'evt', 'stream', 'scene', 'det', 'incident', 'alert', 'rule', 'rsp', 'prot', 'ptype',
  'whk', 'dlv', 'aud', 'org', 'hh', 'key', 'room', 'bnd', 'note', 'req',
  'snap', // detection snapshots (issue 6)
  'ackp', // signed audit checkpoints (issue 9)
  'whip', // WHIP publish sessions (issue 15)
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/**
 * ulid's default PRNG asks the OS for one random byte per character (16 calls per id), which was
 * 5% of an authenticated read's CPU (issue 16 §4). This draws the same CSPRNG bytes from a pool
 * refilled 4 KiB at a time; a byte / 256 maps uniformly onto the 32 base32 characters. Ids are not
 * secrets (API keys have their own generator), but stay unguessable all the same.
 */
const pool = Buffer.allocUnsafe(4096);
let poolAt = pool.length;
function pooledRandom(): number {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  return pool[poolAt++] / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

export function newId(prefix: IdPrefix, at?: number): string {
  return `${prefix}_${nextUlid(at).toLowerCase()}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && id.length === prefix.length + 27;
}
