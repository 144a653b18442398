import type { DbExecutor } from '../../platform/db/index.ts';

/**
 * The reads behind the household's answers about the past (past-answer.ts): every recorded
 * detection of a set of sensors in a period, each sensor's first reading and stream state, the
 * boundaries that covered any part of the period, and the mute and unmute changes of the log.
 * Queries only.
 */
export interface SensorDetectionRow {
  stream_id: string;
  type: string;
  subtype: string | null;
  value: number | null;
  count: number | null;
  at: number;
  track_id: string | null;
}

export const pastAnswerRepository = {
  /** Every detection of these sensors in [from, to], oldest first. */
  detectionsBetween(db: DbExecutor, sensorIds: string[], from: number, to: number): Promise<SensorDetectionRow[]> {
    if (sensorIds.length === 0) return Promise.resolve([]);
    return db
      .selectFrom('detections')
      .select(['stream_id', 'type', 'subtype', 'value', 'count', 'at', 'track_id'])
      .where('stream_id', 'in', sensorIds)
      .where('at', '>=', from)
      .where('at', '<=', to)
      .orderBy('at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  },
  /** Each sensor's first reading ever (epoch ms), and its stream's status and last frame. */
  async sensorStates(db: DbExecutor, sensorIds: string[]): Promise<Map<string, { first: number | null; status: string; lastFrameAt: string | null }>> {
    const out = new Map<string, { first: number | null; status: string; lastFrameAt: string | null }>();
    if (sensorIds.length === 0) return out;
    const [firsts, streams] = await Promise.all([
      db
        .selectFrom('detections')
        .select(['stream_id', (eb) => eb.fn.min('at').as('first')])
        .where('stream_id', 'in', sensorIds)
        .groupBy('stream_id')
        .execute(),
      db.selectFrom('streams').select(['id', 'status', 'last_frame_at']).where('id', 'in', sensorIds).execute(),
    ]);
    for (const s of streams) out.set(s.id, { first: null, status: s.status, lastFrameAt: s.last_frame_at });
    for (const f of firsts) {
      const s = out.get(f.stream_id);
      if (s && f.first !== null) s.first = Number(f.first);
    }
    return out;
  },
  /** The household's boundaries in force at any moment of [from, to] (set before its end, not cleared before its start). */
  boundariesDuring(db: DbExecutor, tenantId: string, from: string, to: string) {
    return db
      .selectFrom('household_boundaries')
      .select(['room_id', 'sensor_id', 'set_at', 'cleared_at'])
      .where('tenant_id', '=', tenantId)
      .where('set_at', '<=', to)
      .where((eb) => eb.or([eb('cleared_at', 'is', null), eb('cleared_at', '>=', from)]))
      .orderBy('set_at', 'asc')
      .execute();
  },
  /** The household's mute and unmute changes up to `to`, oldest first. */
  muteChanges(db: DbExecutor, tenantId: string, to: string) {
    return db
      .selectFrom('household_events')
      .select(['type', 'data', 'occurred_at'])
      .where('tenant_id', '=', tenantId)
      .where('type', 'in', ['sensor.muted', 'sensor.unmuted'])
      .where('occurred_at', '<=', to)
      .orderBy('occurred_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  },
};
