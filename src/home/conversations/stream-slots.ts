/**
 * Concurrent streamed replies per key (DESIGN.md "Rate limits": at most 10; the 11th gets 429
 * concurrent_stream_limit_exceeded before any stream bytes). Behind an interface so a Redis lease
 * store can replace the in-memory one when several nodes serve one key (DESIGN.md "multi-node").
 */
export interface StreamSlot {
  /** Frees the slot; calling it again does nothing. */
  release(): void;
}

export interface StreamSlots {
  /** A slot for this key, or null when `limit` streams are already open. */
  tryAcquire(keyId: string, limit: number): Promise<StreamSlot | null>;
  /** Streams open for a key now. */
  openCount(keyId: string): number;
}

export class MemoryStreamSlots implements StreamSlots {
  private open = new Map<string, number>();

  async tryAcquire(keyId: string, limit: number): Promise<StreamSlot | null> {
    const n = this.open.get(keyId) ?? 0;
    if (n >= limit) return null;
    this.open.set(keyId, n + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.open.get(keyId) ?? 1) - 1;
        if (left <= 0) this.open.delete(keyId);
        else this.open.set(keyId, left);
      },
    };
  }

  openCount(keyId: string): number {
    return this.open.get(keyId) ?? 0;
  }
}
