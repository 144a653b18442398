import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Privacy on every read path: a conversation turn remembers which sensors' content
 * its reply showed (a scene description, a list of events), so the history can hide that reply
 * once the place is left alone. JSON array of stream ids; null for turns from before this
 * migration (read conservatively, see conversation-privacy.ts).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('conversation_turns').addColumn('revealed_sensor_ids', 'text').execute();
}
