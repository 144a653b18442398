import type { DbExecutor, PersonFaceTable, PersonTable } from '../../platform/db/index.ts';
import { paginate, type PageQuery } from '../../platform/db/index.ts';

export type PersonRow = PersonTable;
export type PersonFaceRow = PersonFaceTable;

export const personRepository = {
  async insert(db: DbExecutor, row: PersonRow): Promise<void> {
    await db.insertInto('people').values(row).execute();
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('people').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  listPage(db: DbExecutor, tenantId: string, page: PageQuery) {
    return paginate(db.selectFrom('people').selectAll().where('tenant_id', '=', tenantId), 'id', page);
  },
  async touch(db: DbExecutor, id: string, updatedAt: string): Promise<void> {
    await db.updateTable('people').set({ updated_at: updatedAt }).where('id', '=', id).execute();
  },
  /** The person and every face of them (descriptors and crops): the right to erasure. */
  async deleteWithFaces(db: DbExecutor, tenantId: string, id: string): Promise<number> {
    const faces = await db.deleteFrom('person_faces').where('tenant_id', '=', tenantId).where('person_id', '=', id).executeTakeFirst();
    await db.deleteFrom('people').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
    return Number(faces.numDeletedRows);
  },
  async insertFace(db: DbExecutor, row: PersonFaceRow): Promise<void> {
    await db.insertInto('person_faces').values(row).execute();
  },
  /** Face counts of the given people (list and get show how many faces each has). */
  async faceCounts(db: DbExecutor, tenantId: string, personIds: string[]): Promise<Map<string, { faces: number; kept: number }>> {
    const out = new Map<string, { faces: number; kept: number }>();
    if (!personIds.length) return out;
    const rows = await db
      .selectFrom('person_faces')
      .select(['person_id', (eb) => eb.fn.countAll<number | string>().as('faces'), (eb) => eb.fn.count<number | string>('crop').as('kept')])
      .where('tenant_id', '=', tenantId)
      .where('person_id', 'in', personIds)
      .groupBy('person_id')
      .execute();
    for (const r of rows) out.set(r.person_id, { faces: Number(r.faces), kept: Number(r.kept) });
    return out;
  },
  /** Every person of a tenant, id and name (scene questions and the agent resolve names against them). */
  namesForTenant(db: DbExecutor, tenantId: string) {
    return db.selectFrom('people').select(['id', 'name', 'note']).where('tenant_id', '=', tenantId).orderBy('id').limit(10_000).execute();
  },
  /** Every enrolled descriptor of a tenant made with `model` (what recognition compares against). */
  descriptorsForTenant(db: DbExecutor, tenantId: string, model: string) {
    return db.selectFrom('person_faces').select(['person_id', 'descriptor']).where('tenant_id', '=', tenantId).where('model', '=', model).execute();
  },
};
