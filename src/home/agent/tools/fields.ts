/**
 * Schema parts several tools share (a watch's fields, a place), and the word lists the schemas
 * are built from. One TypeBox schema per tool: the offline planner's calls and an LLM planner's
 * calls are validated by the same schemas, and the same schemas are sent to an OpenAI-compatible
 * endpoint as function definitions.
 */
import { FormatRegistry, Type } from '@sinclair/typebox';
import { WATCHED_KINDS } from '../../../platform/kinds/index.ts';
import type { WatchLike } from '../tool-kit.ts';

// TypeBox's compiler knows no formats until registered; ISO 8601 with a time part, as docs/design.md "Times" fixes.
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)));
}

/** The person and sensor conditions, then one per watched kind of the table of detection kinds (platform/kinds: vehicle, animal, …). */
export const WATCH_CONDITIONS: readonly string[] = [
  'person',
  'unrecognized_person',
  'recognized_person',
  'door_open',
  'motion',
  'loitering',
  ...WATCHED_KINDS.map((k) => k.watch!.condition),
];
export const RECURRENCES = ['none', 'daily', 'weekdays', 'weekends'] as const;
export const SENSOR_KINDS = ['camera', 'contact', 'motion'] as const;

export const IsoTime = (description: string) => Type.String({ format: 'date-time', description });
const Condition = Type.Union(WATCH_CONDITIONS.map((c) => Type.Literal(c)));
export const Recurrence = Type.Union(RECURRENCES.map((r) => Type.Literal(r)));
export const SensorKindSchema = Type.Union(SENSOR_KINDS.map((k) => Type.Literal(k)));

export const watchFields = {
  subject: Type.String({ minLength: 1, description: 'What is watched: a room or sensor name as the user means it' }),
  sensor_ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'Sensors of the subject' }),
  starts_at: IsoTime('Start of the (first) window, ISO 8601 UTC'),
  ends_at: IsoTime('End of the (first) window, ISO 8601 UTC'),
  recurrence: Recurrence,
  window: Type.String({ minLength: 1, description: 'The window in words, e.g. "sunset to sunrise"' }),
  conditions: Type.Optional(Type.Array(Condition, { description: 'What to raise events for; all when absent' })),
  person_ids: Type.Optional(
    Type.Array(Type.String({ pattern: '^person_' }), {
      minItems: 1,
      uniqueItems: true,
      description: 'Only these known people (person ids from the household context), recognized by face on cameras; with condition recognized_person',
    }),
  ),
};

export const placeRef = {
  room: Type.Optional(Type.String({ minLength: 1, description: 'Room name' })),
  sensor_id: Type.Optional(Type.String({ minLength: 1, description: 'Sensor id' })),
};

export function describeWatch(w: WatchLike): Record<string, unknown> {
  return { id: w.id, subject: w.subject, window: w.window, starts_at: w.starts_at, ends_at: w.ends_at, recurrence: w.recurrence };
}
