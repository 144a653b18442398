import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Live face recognition: a `person` detection whose face matched an enrolled person
 * names them (`subtype` 'recognized', `person_id`). Nullable text without a foreign key: erasing
 * a person deletes their descriptors, while past detections keep the id they were recognized as
 * (the history stays what it was; the id then resolves to nobody). Indexed for "was Maria here".
 * A household watch may be for known people only ("let me know when Maria arrives"): their ids,
 * JSON text, null for anyone.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('detections').addColumn('person_id', 'text').execute();
  await db.schema.alterTable('watches').addColumn('person_ids', 'text').execute();
  await db.schema.createIndex('detections_scene_person_at').on('detections').columns(['scene_id', 'person_id', 'at']).execute();
}
