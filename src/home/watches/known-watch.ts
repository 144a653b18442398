import type { KnownWatch } from '../directory/index.ts';
import type { WatchRow } from './watch.repository.ts';

/** A stored watch as the household directory keeps it in memory. */
export function toKnownWatch(w: WatchRow): KnownWatch {
  return {
    id: w.id,
    tenantId: w.tenant_id,
    subject: w.subject,
    sensorIds: JSON.parse(w.sensor_ids) as string[],
    startsAt: Date.parse(w.starts_at),
    endsAt: Date.parse(w.ends_at),
    recurrence: w.recurrence,
    windowText: w.window_text,
    conditions: w.conditions ? (JSON.parse(w.conditions) as string[]) : null,
    personIds: w.person_ids ? (JSON.parse(w.person_ids) as string[]) : null,
  };
}
