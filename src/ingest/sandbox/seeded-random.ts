/**
 * Seeded randomness for the sandbox. Every random choice is drawn from a stream keyed by
 * (seed, scenario, source, time bucket), so any slice of time can be generated on its own,
 * in any order, and always comes out the same (docs/design.md "Sandbox": deterministic for a seed).
 *
 * xmur3 (string hash -> 32-bit seeds) and sfc32 (small fast counter PRNG) are the well-known
 * public-domain pair from the PractRand-tested family; a few lines are clearer than a dependency.
 */

export type KeyPart = string | number;

/** Returns a function producing successive 32-bit hashes of `str` (xmur3). */
function createHashStream(str: string): () => number {
  let h = 1779033703 ^ str.length;
  for (let i = 0; i < str.length; i++) {
    h = Math.imul(h ^ str.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  return () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
}

function joinKey(parts: readonly KeyPart[]): string {
  return parts.join('|');
}

/** A 32-bit unsigned hash of the key parts. */
export function hashKey(...parts: KeyPart[]): number {
  return createHashStream(joinKey(parts))();
}

/** A uniform number in [0, 1) that depends only on the key parts (no stream state). */
export function hashUnit(...parts: KeyPart[]): number {
  return hashKey(...parts) / 4294967296;
}

/** A seeded pseudo-random stream (sfc32). */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...key: KeyPart[]) {
    const next = createHashStream(joinKey(key));
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    // sfc32's first outputs are correlated with the seed words; discard them as its author advises
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Log-uniform in [min, max): many short values, a few long ones, like real stay times. */
  logUniform(min: number, max: number): number {
    return Math.exp(this.uniform(Math.log(min), Math.log(max)));
  }

  /** Exponentially distributed gap for a Poisson process with `ratePerMs` events per ms. */
  exponential(ratePerMs: number): number {
    return -Math.log(1 - this.next()) / ratePerMs;
  }
}
