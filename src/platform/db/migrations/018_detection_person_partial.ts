import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * (scene_id, person_id, at) serves one read, a known person's sightings in a scene, and
 * only rows with a person have one: most detections (counts, vehicles, unrecognized people) carry
 * none, yet every pipeline commit wrote each of them into this b-tree. A partial index
 * holds only recognized sightings; `person_id = ?` implies `person_id IS NOT NULL`, so both SQLite
 * and PostgreSQL still use it for that query.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('detections_scene_person_at').execute();
  await db.schema
    .createIndex('detections_scene_person_at')
    .on('detections')
    .columns(['scene_id', 'person_id', 'at'])
    .where('person_id', 'is not', null)
    .execute();
}
