import type { DatabaseHandle } from '../../platform/db/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import { toIso } from '../../platform/time/index.ts';
import type { Principal } from '../../platform/identity/index.ts';
import type { SceneService } from '../scenes/index.ts';
import { sceneHistoryRepository } from './scene-history.repository.ts';
import { SCENE_HISTORY_RANGES, type SceneHistoryRange, type SceneHistoryView } from './scene-history.schemas.ts';

/**
 * People over time for a scene (issue 13 "a people-over-time chart per scene (last hour / day)"):
 * the peak person count per interval, each stream's count holding until its next reading.
 */
export class SceneHistoryService {
  constructor(private readonly deps: { database: DatabaseHandle; clock: Clock; scenes: SceneService }) {}

  async history(principal: Principal, sceneId: string, range: SceneHistoryRange = '1h'): Promise<SceneHistoryView> {
    const scene = await this.deps.scenes.load(principal, sceneId); // 404 across tenants and locations
    const { ms, bucketMs } = SCENE_HISTORY_RANGES[range];
    const now = this.deps.clock.now();
    const to = now - (now % bucketMs) + bucketMs - 1;
    const from = to + 1 - ms;
    const db = this.deps.database.db;
    const [peaks, before] = await Promise.all([
      sceneHistoryRepository.peaksPerBucket(db, sceneId, from, to, bucketMs),
      sceneHistoryRepository.readingsBefore(db, sceneId, from),
    ]);
    const n = Math.round(ms / bucketMs);
    const byStream = new Map<string, Array<{ people: number; last: number } | undefined>>();
    for (const p of peaks) {
      const row = byStream.get(p.stream_id) ?? new Array<{ people: number; last: number } | undefined>(n);
      if (p.bucket >= 0 && p.bucket < n) row[p.bucket] = p;
      byStream.set(p.stream_id, row);
    }
    const carried = new Map(before.map((b) => [b.stream_id, b.people]));
    for (const id of carried.keys()) if (!byStream.has(id)) byStream.set(id, new Array(n));
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
    return { object: 'scene_history', scene_id: scene.id, location: scene.location, range, bucket_s: bucketMs / 1000, from: toIso(from), to: toIso(to), points };
  }
}
