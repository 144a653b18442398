import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * The detection history is the hot table: every index is one more b-tree page written
 * by every pipeline commit. `detections_at` served one query only, the retention cut by age across
 * scenes, which the (scene_id, at) index now serves scene by scene (detectionRepository.deleteOlderThan).
 * The other indexes each serve reads: (scene_id, at) the scene history, questions and the retention
 * cut; (stream_id, type, at) a stream's latest readings and the household's first reading; the
 * primary key lookups by id (incidents).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.dropIndex('detections_at').execute();
}
