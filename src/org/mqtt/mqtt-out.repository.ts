import type { DbExecutor } from '../../platform/db/index.ts';

/** What Home Assistant discovery announces: every scene, and every stream that is an MQTT sensor. */
export const mqttOutRepository = {
  listScenes(db: DbExecutor) {
    return db.selectFrom('scenes').select(['id', 'tenant_id', 'location', 'people', 'vehicles']).orderBy('id').execute();
  },
  listSensorStreams(db: DbExecutor) {
    return db
      .selectFrom('streams')
      .select(['id', 'tenant_id', 'name', 'location', 'config', 'sandbox'])
      .where('source_type', '=', 'mqtt')
      .orderBy('id')
      .execute();
  },
  findSensorStream(db: DbExecutor, id: string) {
    return db
      .selectFrom('streams')
      .select(['id', 'tenant_id', 'name', 'location', 'config', 'sandbox'])
      .where('id', '=', id)
      .where('source_type', '=', 'mqtt')
      .executeTakeFirst();
  },
};
