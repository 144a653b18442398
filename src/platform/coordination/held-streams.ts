/**
 * What each key holds open on this node: server-sent event streams (the organization feed, a
 * streamed conversation reply; a console wall is the feed opened with the session's key). When a
 * key is revoked or rotated the key service ends them here, on every node, so a revoked key stops
 * receiving at once instead of when the client next reconnects (docs/decisions.md, "Revocation
 * ends what the key holds").
 */
export class HeldStreams {
  private readonly byKey = new Map<string, Set<() => void>>();
  private readonly onHoldFns: Array<() => void> = [];

  /** Calls `fn` whenever a stream is held (the key service starts its re-check then). */
  onHold(fn: () => void): void {
    this.onHoldFns.push(fn);
  }

  /** Registers an open stream of `keyId`; `close` ends it. Returns the release (call it when the stream closes). */
  hold(keyId: string, close: () => void): () => void {
    let set = this.byKey.get(keyId);
    if (!set) this.byKey.set(keyId, (set = new Set()));
    const entry = () => close();
    set.add(entry);
    for (const fn of this.onHoldFns) fn();
    return () => {
      set.delete(entry);
      if (set.size === 0 && this.byKey.get(keyId) === set) this.byKey.delete(keyId);
    };
  }

  /** The keys holding at least one open stream here. */
  keyIds(): string[] {
    return [...this.byKey.keys()];
  }

  /** Ends every stream `keyId` holds here; returns how many. */
  closeKey(keyId: string): number {
    const set = this.byKey.get(keyId);
    if (!set) return 0;
    this.byKey.delete(keyId);
    for (const close of set) {
      try {
        close();
      } catch {
        // a stream that fails to end is already gone
      }
    }
    return set.size;
  }

  get size(): number {
    let n = 0;
    for (const s of this.byKey.values()) n += s.size;
    return n;
  }
}
