import type { AgentAction } from '../agent/index.ts';
import type { HomeSnapshot } from '../household/index.ts';
import type { TurnRow } from './conversation.repository.ts';

/** Actions whose reply shows what a place holds (the rest say what was changed, which stays readable). */
const CONTENT_ACTIONS = new Set(['scene.described', 'events.listed']);

export const REDACTED_REPLY = 'This reply described a place the household asked me to leave alone, so it is no longer shown.';

/** The places left alone now: their sensors, and the words that name them (for turns stored before 008). */
export interface PlacesLeftAlone {
  sensorIds: Set<string>;
  names: string[];
}

export function findPlacesLeftAlone(home: HomeSnapshot): PlacesLeftAlone {
  const sensorIds = new Set<string>();
  const names = new Set<string>();
  for (const b of home.boundaries) {
    const covered = b.sensor_id ? home.sensors.filter((s) => s.id === b.sensor_id) : home.sensors.filter((s) => s.room_id === b.room_id);
    for (const s of covered) {
      sensorIds.add(s.id);
      names.add(s.name.toLowerCase());
    }
    const room = !b.sensor_id ? home.rooms.find((r) => r.id === b.room_id) : undefined;
    if (room) names.add(room.name.toLowerCase());
  }
  return { sensorIds, names: [...names] };
}

/**
 * Whether a stored turn showed content from a place left alone. Turns since
 * migration 008 record the sensors their reply showed; older ones are judged by their words: a
 * content action whose subject or reply names the place.
 */
function showsLeftAlone(t: TurnRow, actions: AgentAction[], left: PlacesLeftAlone): boolean {
  if (left.sensorIds.size === 0) return false;
  if (t.revealed_sensor_ids !== null) return (JSON.parse(t.revealed_sensor_ids) as string[]).some((id) => left.sensorIds.has(id));
  const content = actions.filter((a) => CONTENT_ACTIONS.has(a.type));
  if (content.length === 0) return false;
  const words = [t.reply, ...content.map((a) => a.subject ?? '')].join(' ').toLowerCase();
  return left.names.some((n) => words.includes(n));
}

/**
 * The turn as history shows it now: when its reply showed a place left alone, the reply is
 * replaced and its content actions keep only their type and subject. The person's own message
 * and every change the agent made (the boundary itself included) stay readable.
 */
export function redactTurn(t: TurnRow, left: PlacesLeftAlone): TurnRow & { redacted: boolean } {
  const actions = JSON.parse(t.actions) as AgentAction[];
  if (!showsLeftAlone(t, actions, left)) return { ...t, redacted: false };
  const kept = actions.map((a) => (CONTENT_ACTIONS.has(a.type) ? { type: a.type, ...(a.subject ? { subject: a.subject } : {}), redacted: true } : a));
  return { ...t, reply: REDACTED_REPLY, actions: JSON.stringify(kept), redacted: true };
}
