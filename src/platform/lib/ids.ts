import { takeRandomFraction } from './random-pool.ts';

/** Prefixed, time-sortable ids (docs/design.md "IDs"): `<prefix>_<ULID>`. */
export const ID_PREFIXES = [
  'conv',
  'msg',
  'wat',
  'evt',
  'stream',
  'scene',
  'det',
  'incident',
  'alert',
  'rule',
  'rsp',
  'prot',
  'ptype',
  'whk',
  'dlv',
  'aud',
  'org',
  'hh',
  'key',
  'room',
  'bnd',
  'note',
  'req',
  'snap', // detection snapshots
  'ackp', // signed audit checkpoints
  'whip', // WHIP publish sessions
  'csn', // web console sessions
  'person',
  'face', // known people and their enrolled faces
  'sjob', // durable scheduled jobs
  'rseg', // recorded segments (docs/decisions.md, "Recordings")
  'nsub', // notification subscriptions: a key's or a responder's devices and addresses
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** Crockford's base32, lower case (ids are lower case). */
const B32 = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * A monotonic ULID (the `ulid` package's monotonicFactory semantics: a time at or before the last
 * one reuses the last time and increments the last random part by one) built without the per-
 * character string concatenation and the per-character OS random call of that package, which cost
 * about 1 KB of garbage and 0.7 µs per id; the detection pipeline makes two ids per detection.
 * The random part comes from the CSPRNG pool: a byte / 256 maps uniformly onto the
 * 32 characters. The time part is encoded once per millisecond.
 */
let lastTime = -1;
let timePart = '';
let randomPart = '';

function encodeTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > 0xffff_ffff_ffff) throw new RangeError(`id time out of range: ${ms}`);
  let out = '';
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) out = B32[t % 32] + out;
  return out;
}

function randomChars(n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += B32[Math.floor(takeRandomFraction() * 32)];
  return out;
}

/** randomPart + 1 in base32 (the rightmost non-'z' digit goes up, the z's after it wrap to 0). */
function incremented(r: string): string {
  let i = r.length - 1;
  while (i >= 0 && r[i] === 'z') i--;
  if (i < 0) throw new Error('id random part exhausted within one millisecond');
  return r.slice(0, i) + B32[B32.indexOf(r[i]) + 1] + '0'.repeat(r.length - 1 - i);
}

function nextUlid(at: number = Date.now()): string {
  if (at > lastTime) {
    timePart = encodeTime(at); // throws before anything changes when `at` is out of range
    lastTime = at;
    randomPart = randomChars(16);
  } else {
    randomPart = incremented(randomPart);
  }
  return timePart + randomPart;
}

export function newId(prefix: IdPrefix, at?: number): string {
  return `${prefix}_${nextUlid(at)}`;
}

export function hasPrefix(id: string, prefix: IdPrefix): boolean {
  return id.startsWith(`${prefix}_`) && id.length === prefix.length + 27;
}
