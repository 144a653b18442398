import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DbExecutor, StreamPublishTokenTable } from '../../platform/db/index.ts';

/**
 * A webrtc stream's publish token: what a phone or drone presents to the stream's
 * WHIP endpoint instead of an API key. vpt_ + 32 random bytes (base64url): too long to guess,
 * so the hash needs no salt; only the SHA-256 is stored and the token is shown once.
 */
export function generatePublishToken(): string {
  return `vpt_${randomBytes(32).toString('base64url')}`;
}

export function hashPublishToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function previewPublishToken(token: string): string {
  return `${token.slice(0, 8)}…${token.slice(-4)}`;
}

/** Constant-time comparison of a presented token with a stored hash. */
export function publishTokenMatches(token: string, hash: string): boolean {
  const a = Buffer.from(hashPublishToken(token), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type PublishTokenRow = StreamPublishTokenTable;

export const publishTokenRepository = {
  find(db: DbExecutor, streamId: string) {
    return db.selectFrom('stream_publish_tokens').selectAll().where('stream_id', '=', streamId).executeTakeFirst();
  },
  /** The stream's one token: a new one replaces the old (rotation), un-revoking the row. */
  async put(db: DbExecutor, row: PublishTokenRow): Promise<void> {
    await db.deleteFrom('stream_publish_tokens').where('stream_id', '=', row.stream_id).execute();
    await db.insertInto('stream_publish_tokens').values(row).execute();
  },
  async revoke(db: DbExecutor, streamId: string, at: string): Promise<void> {
    await db.updateTable('stream_publish_tokens').set({ revoked_at: at }).where('stream_id', '=', streamId).execute();
  },
  async delete(db: DbExecutor, streamId: string): Promise<void> {
    await db.deleteFrom('stream_publish_tokens').where('stream_id', '=', streamId).execute();
  },
};
