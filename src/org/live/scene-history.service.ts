import type { DatabaseHandle, PageQuery } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import type { Principal } from '../../platform/identity/index.ts';
import type { SceneService } from '../scenes/index.ts';
import { sceneHistoryRepository, type BucketPeak } from './scene-history.repository.ts';
import { SCENE_HISTORY_RANGES, type SceneHistoryRange, type SceneHistoryView } from './scene-history.schemas.ts';

/**
 * People over time for a scene (the console's people-over-time chart, last hour / day):
 * the peak person count per interval, each stream's count holding until its next reading.
 */
export class SceneHistoryService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock; scenes: SceneService }) {}

  async history(principal: Principal, sceneId: string, range: SceneHistoryRange = '1h'): Promise<SceneHistoryView> {
    const scene = await this.deps.scenes.load(principal, sceneId); // 404 across tenants and locations
    return (await this.histories([scene], range))[0];
  }

  /**
   * Every scene of a page of `GET /v1/scenes` (same order and cursors), each with its chart: one
   * request for the wall's charts, two queries for all the scenes (docs/decisions.md, "The wall in
   * one request per view").
   */
  async historyPage(
    principal: Principal,
    q: PageQuery,
    range: SceneHistoryRange = '1h',
  ): Promise<{ object: 'list'; data: SceneHistoryView[]; has_more: boolean }> {
    const page = await this.deps.scenes.list(principal, q);
    return { object: 'list', data: await this.histories(page.data, range), has_more: page.has_more };
  }

  private async histories(scenes: ReadonlyArray<{ id: string; location: string }>, range: SceneHistoryRange): Promise<SceneHistoryView[]> {
    const { ms, bucketMs } = SCENE_HISTORY_RANGES[range];
    const now = this.deps.clock.now();
    const to = now - (now % bucketMs) + bucketMs - 1;
    const from = to + 1 - ms;
    const db = this.deps.database.db;
    const ids = scenes.map((s) => s.id);
    const [peaks, before] = await Promise.all([
      sceneHistoryRepository.peaksPerBucket(db, ids, from, to, bucketMs),
      sceneHistoryRepository.readingsBefore(db, ids, from),
    ]);
    const n = Math.round(ms / bucketMs);
    return scenes.map((scene) => {
      const points = pointsOf(
        peaks.filter((p) => p.scene_id === scene.id),
        before.filter((b) => b.scene_id === scene.id),
        n,
        from,
        bucketMs,
      );
      return {
        object: 'scene_history' as const,
        scene_id: scene.id,
        location: scene.location,
        range,
        bucket_s: bucketMs / 1000,
        from: toIso(from),
        to: toIso(to),
        points,
      };
    });
  }
}

/** A scene's points: per bucket, the sum over its streams of each one's peak, a count holding until the stream's next reading. */
function pointsOf(peaks: BucketPeak[], before: Array<{ stream_id: string; people: number }>, n: number, from: number, bucketMs: number) {
  const byStream = new Map<string, Array<{ people: number; last: number } | undefined>>();
  for (const p of peaks) {
    const row = byStream.get(p.stream_id) ?? new Array<{ people: number; last: number } | undefined>(n);
    if (p.bucket >= 0 && p.bucket < n) row[p.bucket] = p;
    byStream.set(p.stream_id, row);
  }
  const carried = new Map(before.map((b) => [b.stream_id, b.people]));
  for (const id of carried.keys()) if (!byStream.has(id)) byStream.set(id, new Array<{ people: number; last: number } | undefined>(n));
  const points = [];
  for (let b = 0; b < n; b++) {
    let people = 0;
    for (const [id, row] of byStream) {
      const here = row[b];
      // the interval's peak, counting what held from before its first reading
      people += here ? Math.max(here.people, carried.get(id) ?? 0) : (carried.get(id) ?? 0);
      if (here) carried.set(id, here.last);
    }
    points.push({ at: toIso(from + b * bucketMs), people: Math.round(people) });
  }
  return points;
}
