import type { DbExecutor, ConsoleSessionTable } from '../db/index.ts';

/** Queries of console sessions; the service holds the rules. */
export const consoleSessionRepository = {
  async insert(db: DbExecutor, row: ConsoleSessionTable): Promise<void> {
    await db.insertInto('console_sessions').values(row).execute();
  },
  /** The session of a cookie token with its key row, in one query (every console request runs it). */
  findWithKeyByHash(db: DbExecutor, tokenHash: string) {
    return db
      .selectFrom('console_sessions')
      .innerJoin('api_keys', 'api_keys.id', 'console_sessions.key_id')
      .selectAll('api_keys')
      .select([
        'console_sessions.id as session_id',
        'console_sessions.operator as session_operator',
        'console_sessions.created_at as session_created_at',
        'console_sessions.expires_at as session_expires_at',
        'console_sessions.revoked_at as session_revoked_at',
      ])
      .where('console_sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
  },
  findById(db: DbExecutor, id: string) {
    return db.selectFrom('console_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  },
  /** Those of `ids` that no longer stand at `now`: signed out, expired, gone, or their key revoked. */
  async endedAmong(db: DbExecutor, ids: string[], now: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const live = await db
      .selectFrom('console_sessions')
      .innerJoin('api_keys', 'api_keys.id', 'console_sessions.key_id')
      .select('console_sessions.id')
      .where('console_sessions.id', 'in', ids)
      .where('console_sessions.revoked_at', 'is', null)
      .where('console_sessions.expires_at', '>', now)
      .where('api_keys.revoked_at', 'is', null)
      .execute();
    const standing = new Set(live.map((r) => r.id));
    return ids.filter((id) => !standing.has(id));
  },
  /** Stamps revoked_at on the live sessions of a key (or one of them); returns their ids. */
  async revoke(db: DbExecutor, where: { keyId: string; sessionId?: string }, at: string): Promise<string[]> {
    let q = db.selectFrom('console_sessions').select('id').where('key_id', '=', where.keyId).where('revoked_at', 'is', null);
    if (where.sessionId) q = q.where('id', '=', where.sessionId);
    const ids = (await q.execute()).map((r) => r.id);
    if (ids.length) await db.updateTable('console_sessions').set({ revoked_at: at }).where('id', 'in', ids).execute();
    return ids;
  },
};
