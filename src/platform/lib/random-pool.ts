import { randomFillSync } from 'node:crypto';

/**
 * CSPRNG bytes drawn from a pool refilled 4 KiB at a time (as node's randomUUID caches them): one
 * randomBytes call costs about 5 µs, and ids and audit salts are made on every request and every
 * detection. Not for secrets that must never share a buffer with anything else
 * (API keys and webhook secrets call randomBytes themselves).
 */
const pool = Buffer.allocUnsafe(4096);
let at = pool.length;

/** `n` random bytes (n ≤ 4096), copied out of the pool. */
export function takeRandomBytes(n: number): Buffer {
  if (at + n > pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  const out = Buffer.from(pool.subarray(at, at + n));
  at += n;
  return out;
}

/** `n` random bytes (n ≤ 4096) as hex, read straight out of the pool (no Buffer per call: audit salts). */
export function takeRandomHex(n: number): string {
  if (at + n > pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  const out = pool.toString('hex', at, at + n);
  at += n;
  return out;
}

/** One random byte as a fraction in [0, 1), in steps of 1/256. */
export function takeRandomFraction(): number {
  if (at === pool.length) {
    randomFillSync(pool);
    at = 0;
  }
  return pool[at++] / 256;
}
