/**
 * What each key holds open on this node: server-sent event streams (the organization feed, a
 * streamed conversation reply; a console wall is the feed opened with the session's key). When a
 * key is revoked or rotated the key service ends them here, on every node, so a revoked key stops
 * receiving at once instead of when the client next reconnects (docs/decisions.md, "Revocation
 * ends what the key holds"). A stream opened with a console session is also held under the
 * session, so signing out ends it too, and it ends by itself when the session expires.
 */
/** A console session holding a stream: its id, and the milliseconds left until it expires. */
export interface HeldSession {
  id: string;
  endsInMs: number;
}

/** setTimeout's longest delay; a session is never that long (8 hours). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class HeldStreams {
  private readonly byKey = new Map<string, Set<() => void>>();
  private readonly bySession = new Map<string, Set<() => void>>();
  private readonly onHoldFns: Array<() => void> = [];

  /** Calls `fn` whenever a stream is held (the key service starts its re-check then). */
  onHold(fn: () => void): void {
    this.onHoldFns.push(fn);
  }

  /**
   * Registers an open stream of `keyId` (and of the console session it was opened with, if any:
   * its id, and how long until the session expires, when the stream is ended); `close` ends it.
   * Returns the release (call it when the stream closes).
   */
  hold(keyId: string, close: () => void, session?: HeldSession | null): () => void {
    const entry = () => close();
    const releaseKey = addEntry(this.byKey, keyId, entry);
    const releaseSession = session ? addEntry(this.bySession, session.id, entry) : () => undefined;
    const expiry = session ? setTimeout(entry, Math.min(Math.max(0, session.endsInMs), MAX_TIMER_MS)) : null;
    expiry?.unref();
    for (const fn of this.onHoldFns) fn();
    return () => {
      if (expiry) clearTimeout(expiry);
      releaseKey();
      releaseSession();
    };
  }

  /** The keys holding at least one open stream here. */
  keyIds(): string[] {
    return [...this.byKey.keys()];
  }

  /** The console sessions holding at least one open stream here. */
  sessionIds(): string[] {
    return [...this.bySession.keys()];
  }

  /** Ends every stream `keyId` holds here; returns how many. */
  closeKey(keyId: string): number {
    return closeAll(this.byKey, keyId);
  }

  /** Ends every stream opened here with the console session `sessionId` (signed out); returns how many. */
  closeSession(sessionId: string): number {
    return closeAll(this.bySession, sessionId);
  }

  get size(): number {
    let n = 0;
    for (const s of this.byKey.values()) n += s.size;
    return n;
  }
}

function addEntry(map: Map<string, Set<() => void>>, id: string, entry: () => void): () => void {
  let set = map.get(id);
  if (!set) map.set(id, (set = new Set()));
  set.add(entry);
  const held = set;
  return () => {
    held.delete(entry);
    if (held.size === 0 && map.get(id) === held) map.delete(id);
  };
}

function closeAll(map: Map<string, Set<() => void>>, id: string): number {
  const set = map.get(id);
  if (!set) return 0;
  map.delete(id);
  for (const close of set) {
    try {
      close();
    } catch {
      // a stream that fails to end is already gone
    }
  }
  return set.size;
}
