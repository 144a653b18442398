import type { DbExecutor } from '../db/database.ts';
import type { DetectionTable } from '../db/schema.ts';

export const detectionRepository = {
  async insertMany(db: DbExecutor, rows: DetectionTable[]): Promise<void> {
    // 14 columns per row; stay far below SQLite's 32766 bound parameters
    for (let i = 0; i < rows.length; i += 1000) {
      await db.insertInto('detections').values(rows.slice(i, i + 1000)).execute();
    }
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
  async deleteOlderThan(db: DbExecutor, cutoff: number): Promise<number> {
    const res = await db.deleteFrom('detections').where('at', '<', cutoff).executeTakeFirst();
    return Number(res.numDeletedRows);
  },
};
