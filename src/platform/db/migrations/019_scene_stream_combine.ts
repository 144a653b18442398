import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * How a scene's streams combine into its counts (docs/decisions.md, "One location, several
 * cameras"): `max` of overlapping views (the default, and what every existing scene becomes: a
 * person two cameras see is one person) or `sum` for cameras that watch disjoint areas.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('scenes')
    .addColumn('stream_combine', 'text', (c) => c.notNull().defaultTo('max'))
    .execute();
}
