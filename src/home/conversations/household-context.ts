import { rememberAction, type HouseholdContext, type AgentAction } from '../agent/index.ts';
import type { HomeSnapshot } from '../household/index.ts';
import type { WatchView } from '../watches/index.ts';
import type { TurnRow } from './conversation.repository.ts';

/**
 * What the planner knows when it reads a message (src/home/agent/context.ts): this household's rooms,
 * sensors, boundaries and active watches, and the earlier turns of the conversation so that
 * follow-ups ("make it until 6am instead", "what about the garage?") resolve against them.
 */
export function buildHouseholdContext(home: HomeSnapshot, watches: WatchView[], turns: TurnRow[], now: number): HouseholdContext {
  const { settings } = home;
  return {
    now,
    timeZone: settings.time_zone,
    location:
      settings.lat !== null && settings.lon !== null ? { lat: settings.lat, lon: settings.lon, ...(settings.city ? { city: settings.city } : {}) } : null,
    rooms: home.rooms.map((r) => ({ name: r.name })),
    sensors: home.sensors.map((s) => ({
      id: s.id,
      name: s.name,
      kind: s.kind,
      room: s.room,
      muted: s.muted === 1,
      // how its feed is, so the agent can say which sensors are live (src/home/agent/feed-status.ts)
      status: s.status,
      last_frame_at: s.last_frame_at ?? null,
    })),
    boundaries: home.boundaries.map((b) => {
      if (b.sensor_id) return { sensor_id: b.sensor_id };
      return { room: home.rooms.find((r) => r.id === b.room_id)?.name ?? '' };
    }),
    watches: watches.map((w) => ({
      id: w.id,
      subject: w.subject,
      sensor_ids: w.sensor_ids,
      starts_at: w.starts_at,
      ends_at: w.ends_at,
      recurrence: w.recurrence,
      window: w.window,
    })),
    conversation: {
      turns: turns.map((t) => ({
        message: t.message,
        actions: (JSON.parse(t.actions) as AgentAction[]).map(rememberAction),
      })),
    },
  };
}
