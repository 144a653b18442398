import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * `notification_preferences.paused`: "stop the notifications" holds every notification to that
 * key (or, for `key_id` '*', to every key without its own) until "send them again"; quiet hours and
 * exclusions are kept as they were (docs/decisions.md, "Routing said to the agent").
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('notification_preferences')
    .addColumn('paused', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
