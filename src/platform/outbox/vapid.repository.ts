import type { DbExecutor } from '../db/index.ts';

/** Queries only (docs/architecture.md, "Rules that keep it so"). */
export const vapidRepository = {
  /** A secret every node shares: the first node's `value` is kept, later ones read it. */
  async sharedSecret(db: DbExecutor, name: string, value: string, createdAt: string): Promise<string> {
    await db
      .insertInto('server_secrets')
      .values({ name, value, created_at: createdAt })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const row = await db.selectFrom('server_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
    return row.value;
  },
  /** The JPEG of a detection's snapshot, for an email's inline image (null when none was kept). */
  async snapshotOfDetection(db: DbExecutor, tenantId: string, detectionId: string): Promise<Buffer | null> {
    const row = await db
      .selectFrom('detection_snapshots as d')
      .innerJoin('snapshots as s', 's.id', 'd.snapshot_id')
      .select('s.jpeg')
      .where('d.detection_id', '=', detectionId)
      .where('d.tenant_id', '=', tenantId)
      .executeTakeFirst();
    return row ? Buffer.from(row.jpeg) : null;
  },
};
