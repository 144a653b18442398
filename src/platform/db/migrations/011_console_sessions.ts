import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Web console sessions: an API key pasted into the console is exchanged for
 * a short-lived session held in an HttpOnly cookie. Only the SHA-256 of the cookie token is
 * stored (as for API keys); the session acts as its key, so revoking the key ends its sessions.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('console_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('operator', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('console_sessions_key').on('console_sessions').column('key_id').execute();
}
