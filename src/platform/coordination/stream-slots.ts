/**
 * Concurrent streamed replies per key (docs/design.md "Rate limits": at most 10; the 11th gets 429
 * concurrent_stream_limit_exceeded before any stream bytes). Async throughout so a store shared by
 * several nodes (Redis) can implement it. A slot is a lease: its holder renews it while
 * the stream is open, and a slot that is not renewed within its ttl stops counting, so the slots
 * of a node that died free themselves instead of blocking the key for good.
 */
export interface StreamSlot {
  /** Frees the slot; calling it again does nothing. */
  release(): Promise<void>;
  /** Extends the lease by its ttl from now; false when the slot had already expired or been released. */
  renew(): Promise<boolean>;
}

export interface StreamSlots {
  /** A slot for this key held for `ttlMs` (renewable), or null when `limit` unexpired slots are already held. */
  tryAcquire(keyId: string, limit: number, ttlMs?: number): Promise<StreamSlot | null>;
  /** Unexpired slots held for a key now. */
  openCount(keyId: string): Promise<number>;
}

/** Default lease of a slot; holders renew at a third of it. */
export const DEFAULT_SLOT_TTL_MS = 60_000;

/** Slots in this process's memory. Leases run on real time (`now`), not a test's manual clock. */
export class InProcessStreamSlots implements StreamSlots {
  /** per key: slot id -> lease expiry */
  private readonly open = new Map<string, Map<number, number>>();
  private nextId = 1;

  constructor(private readonly now: () => number = Date.now) {}

  async tryAcquire(keyId: string, limit: number, ttlMs = DEFAULT_SLOT_TTL_MS): Promise<StreamSlot | null> {
    const slots = this.live(keyId);
    if (slots.size >= limit) return null;
    const id = this.nextId++;
    slots.set(id, this.now() + ttlMs);
    this.open.set(keyId, slots);
    return {
      release: async () => {
        const held = this.open.get(keyId);
        if (!held?.delete(id)) return;
        if (held.size === 0) this.open.delete(keyId);
      },
      renew: async () => {
        const held = this.open.get(keyId);
        const expiresAt = held?.get(id);
        if (held === undefined || expiresAt === undefined) return false;
        const now = this.now();
        if (expiresAt <= now) {
          this.drop(keyId, held, id);
          return false;
        }
        held.set(id, now + ttlMs);
        return true;
      },
    };
  }

  async openCount(keyId: string): Promise<number> {
    return this.live(keyId).size;
  }

  /** The key's slots with expired leases dropped. */
  private live(keyId: string): Map<number, number> {
    const held = this.open.get(keyId);
    if (!held) return new Map();
    const now = this.now();
    for (const [id, expiresAt] of held) if (expiresAt <= now) this.drop(keyId, held, id);
    return held;
  }

  private drop(keyId: string, held: Map<number, number>, id: number): void {
    held.delete(id);
    if (held.size === 0) this.open.delete(keyId);
  }
}

/**
 * Renews `slot` every third of its ttl (real time) until it is released: what a holder does for as
 * long as its stream is open. Returns the release, which also stops the renewals.
 */
export function keepSlotRenewed(slot: StreamSlot, ttlMs = DEFAULT_SLOT_TTL_MS): () => Promise<void> {
  const timer = setInterval(
    () => {
      // a renewal that fails (a shared store unreachable) is retried on the next tick; the stream goes on
      slot.renew().catch(() => undefined);
    },
    Math.max(1, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  return () => {
    clearInterval(timer);
    return slot.release();
  };
}
