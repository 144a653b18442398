import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Keys and authorization (docs/decisions.md, 'Keys and authorization'):
 * - `api_keys.role`: a household key is `owner` (sets and lifts boundaries, mutes and unmutes,
 *   manages keys) or `member` (adds boundaries and mutes, never lifts them). Every key that
 *   existed before roles becomes `owner`, so no household loses what it could do; organization
 *   keys keep `owner` too but their power is their capability set, the role is not read for them.
 * - `api_keys.name`: a label given in account settings ("Ana's phone"), never secret.
 * - organization keys that held every capability (created with "all") also get the new `keys:manage`.
 * - `webhook_endpoints.locations`: a JSON list confining an organization endpoint to locations
 *   (null = every location); the outbox fans an event out only to endpoints whose list holds the
 *   event's location, so a location-restricted key's webhook never receives another location.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner'))
    .execute();
  await db.schema.alterTable('api_keys').addColumn('name', 'text').execute();
  await db.schema.alterTable('webhook_endpoints').addColumn('locations', 'text').execute();
  await sql`update api_keys set role = 'owner'`.execute(db);
  // A key created with every capability ("all") keeps meaning "all": it also gets keys:manage.
  const ALL_BEFORE = [
    'streams:read',
    'streams:write',
    'scenes:read',
    'scenes:query',
    'incidents:read',
    'incidents:write',
    'protocols:trigger',
    'protocols:manage',
    'alerts:read',
    'alerts:manage',
    'responders:manage',
    'webhooks:manage',
    'audit:read',
    'operator',
  ];
  const orgKeys = await db.selectFrom('api_keys').select(['id', 'capabilities']).where('tenant_kind', '=', 'organization').execute();
  for (const k of orgKeys as Array<{ id: string; capabilities: string }>) {
    const caps = JSON.parse(k.capabilities) as string[];
    if (ALL_BEFORE.every((c) => caps.includes(c)) && !caps.includes('keys:manage')) {
      await db
        .updateTable('api_keys')
        .set({ capabilities: JSON.stringify([...caps, 'keys:manage']) })
        .where('id', '=', k.id)
        .execute();
    }
  }
  await db.schema.createIndex('api_keys_tenant').on('api_keys').columns(['tenant_id', 'id']).execute();
}
