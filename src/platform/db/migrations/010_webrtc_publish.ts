import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * WebRTC ingest: the publish token of a webrtc stream. One row per stream: rotating
 * replaces the hash, revoking stamps revoked_at (kept so a revoked token is told apart from a
 * wrong one). Only the SHA-256 of the token is stored, as for API keys.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('stream_publish_tokens')
    .addColumn('stream_id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('token_preview', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
}
