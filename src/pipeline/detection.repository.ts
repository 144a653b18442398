import type BetterSqlite3 from 'better-sqlite3';
import type { DbExecutor } from '../db/database.ts';
import type { DetectionTable } from '../db/schema.ts';

const DETECTION_COLUMNS = ['id', 'tenant_id', 'stream_id', 'scene_id', 'location', 'type', 'subtype', 'value', 'count', 'confidence', 'at', 'track_id', 'dwell_s', 'zone'] as const;
const insertStatements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

export const detectionRepository = {
  async insertMany(db: DbExecutor, rows: DetectionTable[]): Promise<void> {
    // 14 columns per row; stay far below SQLite's 32766 bound parameters
    for (let i = 0; i < rows.length; i += 1000) {
      await db.insertInto('detections').values(rows.slice(i, i + 1000)).execute();
    }
  },
  /** The same insert as a prepared statement on the raw SQLite connection (hot path). Caller holds the write lock. */
  insertManySqlite(raw: BetterSqlite3.Database, rows: DetectionTable[]): void {
    let st = insertStatements.get(raw);
    if (!st) {
      st = raw.prepare(`INSERT INTO detections (${DETECTION_COLUMNS.join(', ')}) VALUES (${DETECTION_COLUMNS.map((c) => '@' + c).join(', ')})`);
      insertStatements.set(raw, st);
    }
    for (const r of rows) st.run(r);
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
    for (const type of ['person_count', 'vehicle'] as const) {
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
  /** A stream's most recent person_count value and vehicle count. */
  async latestReadings(db: DbExecutor, streamId: string): Promise<{ people: number | null; vehicles: number | null }> {
    const latest = (type: string) =>
      db.selectFrom('detections').select(['value', 'count']).where('stream_id', '=', streamId).where('type', '=', type)
        .orderBy('at', 'desc').limit(1).executeTakeFirst();
    const [p, v] = await Promise.all([latest('person_count'), latest('vehicle')]);
    return { people: p?.value ?? null, vehicles: v?.count ?? null };
  },
  async deleteOlderThan(db: DbExecutor, cutoff: number): Promise<number> {
    const res = await db.deleteFrom('detections').where('at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
