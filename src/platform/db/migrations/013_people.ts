import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Known people and their enrolled faces. A face is stored as its descriptor
 * (FaceRes, 1024 float32 little-endian) with the model tag it was made with, so a later model
 * change can tell which descriptors it cannot compare; the JPEG crop only when the enrolment asked
 * to keep it. Deleting a person deletes their rows here (right to erasure). `face_recognition` is
 * the organization's opt-in (off by default: no descriptor of a phone frame is computed until on).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const blob = dialect === 'postgres' ? 'bytea' : 'blob';

  await db.schema
    .createTable('people')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('people_tenant').on('people').columns(['tenant_id', 'id']).execute();

  await db.schema
    .createTable('person_faces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('person_id', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('descriptor', sql.raw(blob), (c) => c.notNull())
    .addColumn('crop', sql.raw(blob))
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('person_faces_person').on('person_faces').columns(['person_id']).execute();
  await db.schema.createIndex('person_faces_tenant').on('person_faces').columns(['tenant_id']).execute();

  await db.schema
    .alterTable('automation_settings')
    .addColumn('face_recognition', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
