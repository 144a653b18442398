import type BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { DEFAULT_PAGE_LIMIT, pgJsonText, type DbExecutor, type DatabaseHandle, type DetectionTable } from '../../platform/db/index.ts';
import { COUNTED_KINDS, type DetectionBox } from '../../platform/kinds/index.ts';
import { boxToColumn } from './detection-box.ts';

const DETECTION_COLUMNS = [
  'id',
  'tenant_id',
  'stream_id',
  'scene_id',
  'location',
  'type',
  'subtype',
  'value',
  'count',
  'confidence',
  'at',
  'track_id',
  'dwell_s',
  'zone',
  'box',
  'person_id',
] as const;

/**
 * A detection as the batch inserts take it: the stored row, its box either already stored (JSON
 * text) or still the record's object, so the pipeline hands over its records without copying them.
 */
export type DetectionInsert = Omit<DetectionTable, 'box'> & { box?: DetectionBox | string | null };

const boxColumnOf = (box: DetectionBox | string | null | undefined): string | null => (typeof box === 'string' ? box : boxToColumn(box));

/** the PostgreSQL column types of DETECTION_COLUMNS, for the json_to_recordset() insert */
const PG_TYPES: Record<(typeof DETECTION_COLUMNS)[number], string> = {
  id: 'text',
  tenant_id: 'text',
  stream_id: 'text',
  scene_id: 'text',
  location: 'text',
  type: 'text',
  subtype: 'text',
  value: 'double precision',
  count: 'integer',
  confidence: 'double precision',
  at: 'bigint',
  track_id: 'text',
  dwell_s: 'double precision',
  zone: 'text',
  box: 'text',
  person_id: 'text',
};
const COLUMN_LIST = sql.raw(DETECTION_COLUMNS.join(', '));
/**
 * The PostgreSQL batch insert names each column in its JSON by one letter, a for the first of
 * DETECTION_COLUMNS on (pgRow), so the text sent per row carries no column names
 * (docs/decisions.md, "Pipeline CPU, third pass").
 */
const PG_KEYS = DETECTION_COLUMNS.map((_, i) => String.fromCharCode(97 + i));
const PG_RECORD = sql.raw(DETECTION_COLUMNS.map((c, i) => `${PG_KEYS[i]} ${PG_TYPES[c]}`).join(', '));
const PG_SELECT = sql.raw(PG_KEYS.join(', '));

/**
 * A row as the PostgreSQL batch insert's JSON carries it: the keys of PG_KEYS in the order of
 * DETECTION_COLUMNS, an empty column left out (json_to_recordset reads a missing key as NULL, as it
 * reads null), and nothing the insert does not read (a record's frame objects).
 */
function pgRow(r: DetectionInsert) {
  return {
    a: r.id,
    b: r.tenant_id,
    c: r.stream_id,
    d: r.scene_id,
    e: r.location,
    f: r.type,
    g: r.subtype ?? undefined,
    h: r.value ?? undefined,
    i: r.count ?? undefined,
    j: r.confidence,
    k: r.at,
    l: r.track_id ?? undefined,
    m: r.dwell_s ?? undefined,
    n: r.zone ?? undefined,
    o: r.box ?? undefined,
    p: r.person_id ?? undefined,
  };
}
const insertStatements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

export const detectionRepository = {
  async insertMany(db: DbExecutor, rows: DetectionTable[]): Promise<void> {
    // 16 columns per row; stay far below SQLite's 32766 bound parameters
    for (let i = 0; i < rows.length; i += 1000) {
      await db
        .insertInto('detections')
        .values(rows.slice(i, i + 1000))
        .execute();
    }
  },
  /**
   * The same insert as a prepared statement on the raw SQLite connection (hot path), bound by
   * position straight from the pipeline's records (box still an object): no copy of each row, no
   * named-parameter lookups. Caller holds the write lock.
   */
  insertManySqlite(raw: BetterSqlite3.Database, rows: readonly DetectionInsert[]): void {
    let st = insertStatements.get(raw);
    if (!st) {
      st = raw.prepare(`INSERT INTO detections (${DETECTION_COLUMNS.join(', ')}) VALUES (${DETECTION_COLUMNS.map(() => '?').join(', ')})`);
      insertStatements.set(raw, st);
    }
    for (const r of rows) {
      // the order of DETECTION_COLUMNS; a row without recognition (016) stores no person
      st.run(
        r.id,
        r.tenant_id,
        r.stream_id,
        r.scene_id,
        r.location,
        r.type,
        r.subtype ?? null,
        r.value ?? null,
        r.count ?? null,
        r.confidence,
        r.at,
        r.track_id ?? null,
        r.dwell_s ?? null,
        r.zone ?? null,
        boxColumnOf(r.box),
        r.person_id ?? null,
      );
    }
  },
  /**
   * The same insert on PostgreSQL as one INSERT … SELECT FROM json_to_recordset(the rows as one
   * JSON text): a statement of fixed text and one parameter whatever the batch size, instead of a
   * VALUES list of one parameter per column and row that Kysely compiles and PostgreSQL parses anew
   * for every batch. One JSON.stringify of the records replaced one array literal per column, which
   * `pg` builds by string concatenation and escaping: 43% of everything the PostgreSQL pipeline
   * allocated. A box still an object arrives as its JSON text, as boxToColumn writes it.
   */
  async insertManyPg(trx: DbExecutor, rows: readonly DetectionInsert[]): Promise<void> {
    if (rows.length === 0) return;
    await this.insertStatementPg(rows).execute(trx);
  },
  /** insertManyPg's statement, for running inside another (the pipeline's audit append, one round trip). */
  insertStatementPg(rows: readonly DetectionInsert[]) {
    return sql`INSERT INTO detections (${COLUMN_LIST}) SELECT ${PG_SELECT} FROM json_to_recordset(${pgJsonText(rows.map(pgRow))}::json) AS x(${PG_RECORD})`;
  },
  /**
   * The batch insert of the pipeline's commit, inside `database.withTenantWriteLock` (`trx` is its
   * transaction): on SQLite prepared statements on the raw connection (the hot path), on
   * PostgreSQL one json_to_recordset() statement.
   */
  async insertManyLocked(database: DatabaseHandle, trx: DbExecutor, rows: readonly DetectionInsert[]): Promise<void> {
    if (database.sqlite) this.insertManySqlite(database.sqlite, rows);
    else await this.insertManyPg(trx, rows);
  },
  /**
   * One page of a stream's detections, newest first (docs/design.md "Lists": ids as cursors). Ordered by
   * time, then id, over the scene's (scene_id, at) index — or (stream_id, type, at) with a type —
   * so no index of its own is added to the hot table; a cursor's time is read from its row. A
   * cursor that is not a detection of this stream answers null (the caller says which parameter).
   */
  async pageForStream(
    db: DbExecutor,
    where: { tenantId: string; sceneId: string; streamId: string; type?: string; from?: number; to?: number },
    page: { limit?: number; starting_after?: string; ending_before?: string },
  ): Promise<{ rows: DetectionTable[]; has_more: boolean } | null> {
    const limit = page.limit ?? DEFAULT_PAGE_LIMIT;
    const cursorId = page.ending_before ?? page.starting_after;
    let cursorAt: number | null = null;
    if (cursorId) {
      const row = await db
        .selectFrom('detections')
        .select('at')
        .where('id', '=', cursorId)
        .where('tenant_id', '=', where.tenantId)
        .where('stream_id', '=', where.streamId)
        .executeTakeFirst();
      if (!row) return null;
      cursorAt = Number(row.at);
    }
    let q = db.selectFrom('detections').selectAll().where('tenant_id', '=', where.tenantId).where('stream_id', '=', where.streamId);
    q = where.type ? q.where('type', '=', where.type) : q.where('scene_id', '=', where.sceneId);
    if (where.from !== undefined) q = q.where('at', '>=', where.from);
    if (where.to !== undefined) q = q.where('at', '<=', where.to);
    if (cursorId && cursorAt !== null) {
      const at = cursorAt;
      const newer = Boolean(page.ending_before);
      q = q.where((eb) => eb.or([eb('at', newer ? '>' : '<', at), eb.and([eb('at', '=', at), eb('id', newer ? '>' : '<', cursorId)])]));
      if (newer) {
        const rows = await q
          .orderBy('at', 'asc')
          .orderBy('id', 'asc')
          .limit(limit + 1)
          .execute();
        return { rows: rows.slice(0, limit).reverse(), has_more: rows.length > limit };
      }
    }
    const rows = await q
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit + 1)
      .execute();
    return { rows: rows.slice(0, limit), has_more: rows.length > limit };
  },
  /** Detections of a scene in [from, to], plus the last reading of each type before `from` (state at from). */
  async inRangeWithState(db: DbExecutor, sceneId: string, from: number, to: number): Promise<DetectionTable[]> {
    const inRange = await db
      .selectFrom('detections')
      .selectAll()
      .where('scene_id', '=', sceneId)
      .where('at', '>=', from)
      .where('at', '<=', to)
      .orderBy('at', 'asc')
      .orderBy('id', 'asc')
      .limit(200_000)
      .execute();
    const before: DetectionTable[] = [];
    // the reading in force at `from` of people and of every counted kind (vehicle, …; platform/kinds)
    for (const type of ['person_count', ...COUNTED_KINDS.map((k) => k.type)]) {
      const row = await db
        .selectFrom('detections')
        .selectAll()
        .where('scene_id', '=', sceneId)
        .where('type', '=', type)
        .where('at', '<', from)
        .orderBy('at', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (row) before.push(row);
    }
    before.sort((a, b) => a.at - b.at);
    return [...before, ...inRange];
  },
  /** Which of these animal subtypes the scene's detections in [from, to] hold ("any foxes?": other-animals.ts in scene queries). */
  async animalSubtypes(db: DbExecutor, sceneId: string, subtypes: readonly string[], from: number, to: number): Promise<string[]> {
    if (subtypes.length === 0) return [];
    const rows = await db
      .selectFrom('detections')
      .select('subtype')
      .distinct()
      .where('scene_id', '=', sceneId)
      .where('at', '>=', from)
      .where('at', '<=', to)
      .where('type', '=', 'animal')
      .where('subtype', 'in', [...subtypes])
      .execute();
    return rows.map((r) => r.subtype).filter((s): s is string => s !== null);
  },

  /**
   * What "when was X last seen / when did X last arrive" needs without loading the whole range
   * (scene queries): the latest sighting in [from, to] (a tracked detection, or a count above
   * zero), the first zero count after it, the latest zero count and what ended it, the count in
   * force at `to`, and for tracked objects
   * the first sighting of the latest track (its arrival) plus the latest counter readings (where
   * no tracks exist, arrivals are the counter's rises).
   */
  async lastSighting(db: DbExecutor, sceneId: string, kind: 'people' | 'vehicles' | 'unrecognized', from: number, to: number): Promise<DetectionTable[]> {
    const countType = kind === 'vehicles' ? 'vehicle' : 'person_count';
    const countColumn = kind === 'vehicles' ? 'count' : 'value';
    const base = () => db.selectFrom('detections').selectAll().where('scene_id', '=', sceneId).where('at', '>=', from).where('at', '<=', to);
    const rows: DetectionTable[] = [];
    const latestEvent = await base()
      .where('type', '=', kind === 'vehicles' ? 'vehicle' : 'person')
      .where((eb) => (kind === 'unrecognized' ? eb('subtype', '=', 'unrecognized') : eb('track_id', 'is not', null)))
      .orderBy('at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latestEvent) {
      rows.push(latestEvent);
      if (latestEvent.track_id) {
        const first = await base().where('track_id', '=', latestEvent.track_id).orderBy('at', 'asc').limit(1).executeTakeFirst();
        if (first) rows.push(first);
      }
    }
    if (kind !== 'unrecognized') {
      const positive = await base().where('type', '=', countType).where(countColumn, '>', 0).orderBy('at', 'desc').limit(1).executeTakeFirst();
      if (positive) {
        rows.push(positive);
        const cleared = await base()
          .where('type', '=', countType)
          .where('at', '>', positive.at)
          .where(countColumn, '=', 0)
          .orderBy('at', 'asc')
          .limit(1)
          .executeTakeFirst();
        if (cleared) rows.push(cleared);
      }
      // the latest empty reading ("when was it last empty?") and the one that ended it
      const empty = await base().where('type', '=', countType).where(countColumn, '=', 0).orderBy('at', 'desc').limit(1).executeTakeFirst();
      if (empty) {
        rows.push(empty);
        const filled = await base()
          .where('type', '=', countType)
          .where('at', '>', empty.at)
          .where(countColumn, '>', 0)
          .orderBy('at', 'asc')
          .limit(1)
          .executeTakeFirst();
        if (filled) rows.push(filled);
      }
      // the latest readings: the count in force at `to`, and the rises a bare counter shows
      rows.push(...(await base().where('type', '=', countType).orderBy('at', 'desc').limit(2000).execute()));
    }
    const unique = [...new Map(rows.map((r) => [r.id, r])).values()];
    return unique.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  },
  /** The person detections in [from, to] recognized as one known person (index of migration 016). */
  personSightings(db: DbExecutor, sceneId: string, personId: string, from: number, to: number): Promise<DetectionTable[]> {
    return db
      .selectFrom('detections')
      .selectAll()
      .where('scene_id', '=', sceneId)
      .where('person_id', '=', personId)
      .where('at', '>=', from)
      .where('at', '<=', to)
      .orderBy('at', 'asc')
      .limit(10_000)
      .execute();
  },
  /** A stream's latest detection of these types (a contact's last door_open or door_closed: its state), or undefined. */
  latestOfTypes(db: DbExecutor, streamId: string, types: readonly string[]): Promise<Pick<DetectionTable, 'type' | 'at'> | undefined> {
    return db
      .selectFrom('detections')
      .select(['type', 'at'])
      .where('stream_id', '=', streamId)
      .where('type', 'in', [...types])
      .orderBy('at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },
  /** A stream's latest person_count and vehicle readings before `before` (a multi-stream scene's state when a range begins). */
  async readingsBefore(db: DbExecutor, streamId: string, before: number): Promise<DetectionTable[]> {
    const latest = (type: string) =>
      db
        .selectFrom('detections')
        .selectAll()
        .where('stream_id', '=', streamId)
        .where('type', '=', type)
        .where('at', '<', before)
        .orderBy('at', 'desc')
        .limit(1)
        .executeTakeFirst();
    const out: DetectionTable[] = [];
    for (const r of await Promise.all([latest('person_count'), latest('vehicle')])) if (r) out.push(r);
    return out;
  },
  /** ... and the latest count of every other counted kind of the table of detection kinds (platform/kinds) it has one of. */
  async latestReadings(db: DbExecutor, streamId: string): Promise<{ people: number | null; vehicles: number | null; counts: Record<string, number> }> {
    const latest = (type: string) =>
      db
        .selectFrom('detections')
        .select(['value', 'count'])
        .where('stream_id', '=', streamId)
        .where('type', '=', type)
        .orderBy('at', 'desc')
        .limit(1)
        .executeTakeFirst();
    const others = COUNTED_KINDS.filter((k) => k.type !== 'vehicle').map((k) => k.type);
    const [p, v, ...rest] = await Promise.all([latest('person_count'), latest('vehicle'), ...others.map(latest)]);
    const counts: Record<string, number> = {};
    others.forEach((type, i) => {
      const c = rest[i]?.count;
      if (c != null) counts[type] = c;
    });
    return { people: p?.value ?? null, vehicles: v?.count ?? null, counts };
  },
  /**
   * The retention cut. There is no index on `at` alone (migration 017, one b-tree fewer on every
   * commit): the scenes with history are found by a loose index scan of (scene_id, at) (one index
   * seek per scene, a recursive CTE), and each scene's old rows are a range of that same index.
   */
  async deleteOlderThan(db: DbExecutor, cutoff: number): Promise<number> {
    const res = await sql`
      WITH RECURSIVE s(id) AS (
        SELECT min(scene_id) FROM detections
        UNION ALL
        SELECT (SELECT min(d.scene_id) FROM detections d WHERE d.scene_id > s.id) FROM s WHERE s.id IS NOT NULL
      )
      DELETE FROM detections WHERE scene_id IN (SELECT id FROM s WHERE id IS NOT NULL) AND at < ${cutoff}`.execute(db);
    return Number(res.numAffectedRows ?? 0);
  },
};
