import { type DbExecutor, type PersonFaceTable, type PersonTable, type PageQuery, paginate } from '../../platform/db/index.ts';

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

  // --- erasure (docs/decisions.md, "Erasure removes the person from every read") ---

  /** Deletes the snapshots (frames) of detections recognized as the person, with every link to them; returns how many. */
  async deleteSnapshotsOf(db: DbExecutor, tenantId: string, personId: string): Promise<number> {
    const rows = await db
      .selectFrom('detection_snapshots as ds')
      .innerJoin('detections as d', 'd.id', 'ds.detection_id')
      .select('ds.snapshot_id')
      .distinct()
      .where('d.tenant_id', '=', tenantId)
      .where('d.person_id', '=', personId)
      .execute();
    const ids = rows.map((r) => r.snapshot_id);
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      await db.deleteFrom('detection_snapshots').where('tenant_id', '=', tenantId).where('snapshot_id', 'in', chunk).execute();
      await db.deleteFrom('snapshots').where('tenant_id', '=', tenantId).where('id', 'in', chunk).execute();
    }
    return ids.length;
  },
  /** Detections recognized as the person become a person nobody named; returns how many. */
  async forgetInDetections(db: DbExecutor, tenantId: string, personId: string): Promise<number> {
    const res = await db
      .updateTable('detections')
      .set({ person_id: null, subtype: null })
      .where('tenant_id', '=', tenantId)
      .where('person_id', '=', personId)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  },
  // rows of JSON columns that name the person (a substring match; the caller parses, scrubs and writes back)
  alertsMentioning(db: DbExecutor, tenantId: string, personId: string) {
    return db.selectFrom('alerts').select(['id', 'detection']).where('tenant_id', '=', tenantId).where('detection', 'like', `%${personId}%`).execute();
  },
  async setAlertDetection(db: DbExecutor, id: string, detection: string): Promise<void> {
    await db.updateTable('alerts').set({ detection }).where('id', '=', id).execute();
  },
  incidentDetectionsMentioning(db: DbExecutor, tenantId: string, personId: string) {
    return db
      .selectFrom('incident_detections')
      .select(['incident_id', 'detection_id', 'detection'])
      .where('tenant_id', '=', tenantId)
      .where('detection', 'like', `%${personId}%`)
      .execute();
  },
  async setIncidentDetection(db: DbExecutor, incidentId: string, detectionId: string, detection: string): Promise<void> {
    await db.updateTable('incident_detections').set({ detection }).where('incident_id', '=', incidentId).where('detection_id', '=', detectionId).execute();
  },
  householdEventsMentioning(db: DbExecutor, tenantId: string, personId: string) {
    return db
      .selectFrom('household_events')
      .select(['id', 'detection', 'data'])
      .where('tenant_id', '=', tenantId)
      .where((eb) => eb.or([eb('detection', 'like', `%${personId}%`), eb('data', 'like', `%${personId}%`)]))
      .execute();
  },
  async setHouseholdEvent(db: DbExecutor, id: string, detection: string | null, data: string | null): Promise<void> {
    await db.updateTable('household_events').set({ detection, data }).where('id', '=', id).execute();
  },
  /** Webhook events naming the person that some endpoint has not been sent yet (pending or retrying). */
  undeliveredEventsMentioning(db: DbExecutor, tenantId: string, personId: string) {
    return db
      .selectFrom('webhook_events as e')
      .select(['e.id', 'e.body'])
      .where('e.tenant_id', '=', tenantId)
      .where('e.body', 'like', `%${personId}%`)
      .where((eb) =>
        eb.exists(eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id').where('d.status', 'in', ['pending', 'retrying'])),
      )
      .execute();
  },
  async setEventBody(db: DbExecutor, id: string, body: string): Promise<void> {
    await db.updateTable('webhook_events').set({ body }).where('id', '=', id).execute();
  },
};
