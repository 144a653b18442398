import type BetterSqlite3 from 'better-sqlite3';
import { sql, type CompiledQuery } from 'kysely';
import {
  writeBeforeCommit,
  type DatabaseHandle,
  type DbExecutor,
  type IncidentDetectionTable,
  type IncidentNoteTable,
  type IncidentTable,
  paginate,
  type PageQuery,
} from '../../platform/db/index.ts';

export type IncidentRow = IncidentTable;

function moveActivityStatement(db: DbExecutor, moves: Array<{ id: string; lastActivityAt: number }>): CompiledQuery | null {
  if (moves.length === 0) return null;
  if (moves.length === 1) return db.updateTable('incidents').set({ last_activity_at: moves[0].lastActivityAt }).where('id', '=', moves[0].id).compile();
  const cases = sql.join(
    moves.map((m) => sql`WHEN ${m.id} THEN CAST(${m.lastActivityAt} AS bigint)`),
    sql` `,
  );
  return db
    .updateTable('incidents')
    .set({ last_activity_at: sql<number>`CASE id ${cases} END` })
    .where(
      'id',
      'in',
      moves.map((m) => m.id),
    )
    .compile();
}
export type IncidentDetectionRow = IncidentDetectionTable;
export type IncidentNoteRow = IncidentNoteTable;

/** An incident still being worked: anomalies and alerts at its location attach to it. */
export const ACTIVE_INCIDENT_STATUSES = ['open', 'acknowledged'] as const;
const hotStatements = new WeakMap<
  BetterSqlite3.Database,
  { groupable: BetterSqlite3.Statement; link: BetterSqlite3.Statement; move: BetterSqlite3.Statement }
>();

export const incidentRepository = {
  /** inside the pipeline's commit on PostgreSQL it is sent with the next statement (writeBeforeCommit) */
  async insert(db: DbExecutor, row: IncidentRow): Promise<void> {
    await writeBeforeCommit(db, [db.insertInto('incidents').values(row).compile()]);
  },
  findForTenant(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('incidents').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  findById(db: DbExecutor, id: string) {
    return db.selectFrom('incidents').selectAll().where('id', '=', id).executeTakeFirst();
  },
  listQuery(db: DbExecutor, tenantId: string, locations: readonly string[] | null) {
    let q = db.selectFrom('incidents').selectAll().where('tenant_id', '=', tenantId);
    if (locations) q = locations.length ? q.where('location', 'in', [...locations]) : q.where(sql<boolean>`1 = 0`);
    return q;
  },
  /** A page of the incidents a key may see, filtered (docs/design.md "Lists"); `since` is an ISO time. */
  listPage(
    db: DbExecutor,
    tenantId: string,
    locations: readonly string[] | null,
    f: {
      status?: IncidentTable['status'];
      severity?: IncidentTable['severity'];
      source?: IncidentTable['source'];
      location?: string;
      streamId?: string;
      since?: string;
    },
    page: PageQuery,
  ) {
    let q = this.listQuery(db, tenantId, locations);
    if (f.status) q = q.where('status', '=', f.status);
    if (f.severity) q = q.where('severity', '=', f.severity);
    if (f.source) q = q.where('source', '=', f.source);
    if (f.location) q = q.where('location', '=', f.location);
    if (f.streamId) q = q.where('stream_id', '=', f.streamId);
    if (f.since) q = q.where('created_at', '>=', f.since);
    return paginate(q, 'id', page);
  },
  /** The automatic incident an anomaly at this scene at or after `since` joins, if any. */
  findGroupable(db: DbExecutor, sceneId: string, since: number) {
    return db
      .selectFrom('incidents')
      .selectAll()
      .where('scene_id', '=', sceneId)
      .where('status', 'in', [...ACTIVE_INCIDENT_STATUSES])
      .where('source', '=', 'automatic')
      .where('last_activity_at', '>=', since)
      .orderBy('last_activity_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  /**
   * findGroupable for several scenes in one query: per scene, the automatic incident active there
   * most recently at or after that scene's `since`.
   */
  async findGroupableMany(db: DbExecutor, sinceByScene: Map<string, number>): Promise<Map<string, IncidentRow>> {
    const out = new Map<string, IncidentRow>();
    if (sinceByScene.size === 0) return out;
    const rows = await db
      .selectFrom('incidents')
      .selectAll()
      .where('scene_id', 'in', [...sinceByScene.keys()])
      .where('status', 'in', [...ACTIVE_INCIDENT_STATUSES])
      .where('source', '=', 'automatic')
      .where('last_activity_at', '>=', Math.min(...sinceByScene.values()))
      .orderBy('last_activity_at', 'desc')
      .execute();
    for (const r of rows) {
      if (!out.has(r.scene_id) && Number(r.last_activity_at) >= sinceByScene.get(r.scene_id)!) out.set(r.scene_id, r);
    }
    return out;
  },
  /**
   * findGroupableMany, linkDetections and moveActivity as prepared statements on SQLite's raw
   * connection, for the pipeline's commit (anomalies ride in it), as the detection and
   * audit inserts do. Only inside the write lock (Kysely's connection mutex is held).
   */
  /**
   * Inside the pipeline's commit (its write lock, `trx`): links the detections and moves the
   * activity times, as prepared statements on SQLite's raw connection or linkAndMoveActivity.
   */
  async linkAndMoveActivityIn(
    database: DatabaseHandle,
    trx: DbExecutor,
    links: IncidentDetectionRow[],
    moves: Array<{ id: string; lastActivityAt: number }>,
  ): Promise<void> {
    if (database.sqlite) {
      const hot = this.sqliteHotPath(database.sqlite);
      hot.linkDetections(links);
      hot.moveActivity(moves);
      return;
    }
    await this.linkAndMoveActivity(trx, links, moves);
  },
  /** findGroupableMany inside the pipeline's commit: prepared statements on SQLite (inside its write lock). */
  findGroupableManyIn(
    database: DatabaseHandle,
    trx: DbExecutor,
    sinceByScene: Map<string, number>,
  ): Map<string, IncidentRow> | Promise<Map<string, IncidentRow>> {
    if (database.sqlite) return this.sqliteHotPath(database.sqlite).findGroupableMany(sinceByScene);
    return this.findGroupableMany(trx, sinceByScene);
  },
  sqliteHotPath(raw: BetterSqlite3.Database) {
    let st = hotStatements.get(raw);
    if (!st) {
      st = {
        groupable: raw.prepare(
          `SELECT * FROM incidents WHERE scene_id IN (SELECT value FROM json_each(?)) AND status IN (${ACTIVE_INCIDENT_STATUSES.map((s) => `'${s}'`).join(', ')})
           AND source = 'automatic' AND last_activity_at >= ? ORDER BY last_activity_at DESC`,
        ),
        link: raw.prepare(
          `INSERT INTO incident_detections (incident_id, detection_id, tenant_id, track_id, at, detection)
           VALUES (@incident_id, @detection_id, @tenant_id, @track_id, @at, @detection) ON CONFLICT (incident_id, detection_id) DO NOTHING`,
        ),
        move: raw.prepare('UPDATE incidents SET last_activity_at = ? WHERE id = ?'),
      };
      hotStatements.set(raw, st);
    }
    const statements = st;
    return {
      findGroupableMany(sinceByScene: Map<string, number>): Map<string, IncidentRow> {
        const out = new Map<string, IncidentRow>();
        if (sinceByScene.size === 0) return out;
        const rows = statements.groupable.all(JSON.stringify([...sinceByScene.keys()]), Math.min(...sinceByScene.values())) as IncidentRow[];
        for (const r of rows) {
          if (!out.has(r.scene_id) && Number(r.last_activity_at) >= sinceByScene.get(r.scene_id)!) out.set(r.scene_id, r);
        }
        return out;
      },
      linkDetections(rows: IncidentDetectionRow[]): void {
        for (const r of rows) statements.link.run(r);
      },
      moveActivity(moves: Array<{ id: string; lastActivityAt: number }>): void {
        for (const m of moves) statements.move.run(m.lastActivityAt, m.id);
      },
    };
  },
  /** Moves several incidents' activity times on in one statement. */
  async moveActivity(db: DbExecutor, moves: Array<{ id: string; lastActivityAt: number }>): Promise<void> {
    if (moves.length === 0) return;
    if (moves.length === 1) return this.update(db, moves[0].id, { last_activity_at: moves[0].lastActivityAt });
    const cases = sql.join(
      moves.map((m) => sql`WHEN ${m.id} THEN CAST(${m.lastActivityAt} AS bigint)`),
      sql` `,
    );
    await db
      .updateTable('incidents')
      .set({ last_activity_at: sql<number>`CASE id ${cases} END` })
      .where(
        'id',
        'in',
        moves.map((m) => m.id),
      )
      .execute();
  },
  /**
   * linkDetections and moveActivity in one statement on PostgreSQL (the insert as a data-modifying
   * CTE of the update): one round trip fewer in every pipeline commit that extends incidents.
   * Falls back to the two statements when either side is empty or the links are
   * more than one statement carries. Inside the pipeline's commit they go with COMMIT, in its
   * round trip (docs/decisions.md, "PostgreSQL commit in two round trips").
   */
  async linkAndMoveActivity(db: DbExecutor, links: IncidentDetectionRow[], moves: Array<{ id: string; lastActivityAt: number }>): Promise<void> {
    await writeBeforeCommit(db, this.linkAndMoveActivityStatements(db, links, moves));
  },
  /** linkAndMoveActivity's statements, compiled (one when the batch allows). */
  linkAndMoveActivityStatements(db: DbExecutor, links: IncidentDetectionRow[], moves: Array<{ id: string; lastActivityAt: number }>): CompiledQuery[] {
    if (links.length === 0 || moves.length === 0 || links.length > 1000) {
      const out: CompiledQuery[] = [];
      for (let i = 0; i < links.length; i += 1000) {
        out.push(
          db
            .insertInto('incident_detections')
            .values(links.slice(i, i + 1000))
            .onConflict((oc) => oc.columns(['incident_id', 'detection_id']).doNothing())
            .compile(),
        );
      }
      const move = moveActivityStatement(db, moves);
      return move ? [...out, move] : out;
    }
    const cases = sql.join(
      moves.map((m) => sql`WHEN ${m.id} THEN CAST(${m.lastActivityAt} AS bigint)`),
      sql` `,
    );
    return [
      db
        .with('linked', (w) =>
          w
            .insertInto('incident_detections')
            .values(links)
            .onConflict((oc) => oc.columns(['incident_id', 'detection_id']).doNothing())
            .returning('incident_id'),
        )
        .updateTable('incidents')
        .set({ last_activity_at: sql<number>`CASE id ${cases} END` })
        .where(
          'id',
          'in',
          moves.map((m) => m.id),
        )
        .compile(),
    ];
  },
  /** The most recently active incident being worked at a scene (alerts attach to it). */
  findActiveAtScene(db: DbExecutor, sceneId: string) {
    return db
      .selectFrom('incidents')
      .select(['id'])
      .where('scene_id', '=', sceneId)
      .where('status', 'in', [...ACTIVE_INCIDENT_STATUSES])
      .orderBy('last_activity_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  async update(db: DbExecutor, id: string, patch: Partial<IncidentRow>): Promise<void> {
    await db.updateTable('incidents').set(patch).where('id', '=', id).execute();
  },
  /** inside the pipeline's commit on PostgreSQL they are sent with the next statement (writeBeforeCommit) */
  async linkDetections(db: DbExecutor, rows: IncidentDetectionRow[]): Promise<void> {
    const statements: CompiledQuery[] = [];
    for (let i = 0; i < rows.length; i += 1000) {
      statements.push(
        db
          .insertInto('incident_detections')
          .values(rows.slice(i, i + 1000))
          .onConflict((oc) => oc.columns(['incident_id', 'detection_id']).doNothing())
          .compile(),
      );
    }
    await writeBeforeCommit(db, statements);
  },
  listDetections(db: DbExecutor, incidentId: string, limit: number) {
    return db.selectFrom('incident_detections').selectAll().where('incident_id', '=', incidentId).orderBy('at', 'desc').limit(limit).execute();
  },
  async countDetections(db: DbExecutor, incidentId: string): Promise<number> {
    const r = await db
      .selectFrom('incident_detections')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('incident_id', '=', incidentId)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  },
  findDetection(db: DbExecutor, tenantId: string, id: string) {
    return db.selectFrom('detections').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  },
  async insertNote(db: DbExecutor, row: IncidentNoteRow): Promise<void> {
    await db.insertInto('incident_notes').values(row).execute();
  },
  listNotes(db: DbExecutor, incidentId: string) {
    return db.selectFrom('incident_notes').selectAll().where('incident_id', '=', incidentId).orderBy('id', 'asc').execute();
  },
  /** Audit entries about the incident and its protocol runs: the operator actions of its timeline. */
  listAuditFor(db: DbExecutor, tenantId: string, incidentId: string, runIds: string[]) {
    return db
      .selectFrom('audit_log')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where((eb) =>
        eb.or([
          eb.and([eb('resource_type', '=', 'incident'), eb('resource_id', '=', incidentId)]),
          ...(runIds.length ? [eb.and([eb('resource_type', '=', 'protocol_run'), eb('resource_id', 'in', runIds)])] : []),
        ]),
      )
      .orderBy('seq', 'asc')
      .limit(2000)
      .execute();
  },
};
