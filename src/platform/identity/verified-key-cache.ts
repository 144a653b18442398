import type { Principal } from './principal.ts';

/**
 * Verified keys for a few seconds, so an authenticated read does not look its key up
 * in the database every time. Keyed by the key's SHA-256 (what the database stores), never the key
 * itself. Only keys that verified are cached: unknown and revoked keys always reach the database.
 *
 * Revoking or rotating a key in this process forgets it at once (`forgetKey`), and a lookup that
 * was already reading the database when a key was forgotten does not put its (possibly stale) row
 * back (the generation check), so the next request after a revoke answers 401 api_key_revoked.
 * Another process that revokes on the same SQLite file (the admin CLI) is seen at the next request:
 * it tells the serving process before its revoke returns (coordination's SocketCacheInvalidation,
 * `forgetKey`), and where it cannot, the key service asks the database whether another connection
 * committed since (`forgetAll`). On
 * PostgreSQL another process's revocation is seen within `ttlMs` at most, until a cross-node signal
 * calls `forgetKey` on every node.
 */
export class VerifiedKeyCache {
  private readonly byHash = new Map<string, { principal: Principal; expiresAt: number }>();
  private readonly hashById = new Map<string, string>();
  private gen = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get generation(): number {
    return this.gen;
  }

  get(hash: string, now: number): Principal | undefined {
    const hit = this.byHash.get(hash);
    if (!hit) return undefined;
    if (hit.expiresAt <= now) {
      this.drop(hash, hit.principal.keyId);
      return undefined;
    }
    return hit.principal;
  }

  /** Stores a verified key unless a key was forgotten since `generation` was read. */
  set(hash: string, principal: Principal, now: number, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.gen) return;
    if (this.byHash.size >= this.maxEntries) {
      // the oldest entry (Map keeps insertion order) makes room
      const [oldHash, oldest] = this.byHash.entries().next().value!;
      this.drop(oldHash, oldest.principal.keyId);
    }
    this.byHash.set(hash, { principal, expiresAt: now + this.ttlMs });
    this.hashById.set(principal.keyId, hash);
  }

  /** Revoked or rotated: the next request with this key is looked up in the database. */
  forgetKey(keyId: string): void {
    this.gen++;
    const hash = this.hashById.get(keyId);
    if (hash !== undefined) this.drop(hash, keyId);
  }

  /** Another process changed the database (it may have revoked a key): every key is looked up again. */
  forgetAll(): void {
    this.gen++;
    this.byHash.clear();
    this.hashById.clear();
  }

  private drop(hash: string, keyId: string): void {
    this.byHash.delete(hash);
    if (this.hashById.get(keyId) === hash) this.hashById.delete(keyId);
  }
}
