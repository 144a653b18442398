import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * streams(scene_id): a scene read (GET /v1/scenes/:id, sceneRepository.findWithStreamIds) joins the
 * scene's streams; without it the join walked every stream of the tenant through (tenant_id, id),
 * so a scene read cost grew with the tenant's stream count (docs/decisions.md, "Request path: a
 * scene's streams by index").
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('streams_scene').on('streams').column('scene_id').execute();
}
