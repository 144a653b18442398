/**
 * The household agent's tool catalogue (issue 4 §2). One TypeBox schema per tool: the offline
 * planner's calls and an LLM planner's calls are validated by the same schemas, and the same
 * schemas are sent to an OpenAI-compatible endpoint as function definitions.
 */
import { FormatRegistry, Type, type Static, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { WATCHED_KINDS } from '../../platform/kinds/index.ts';

// TypeBox's compiler knows no formats until registered; ISO 8601 with a time part, as DESIGN.md fixes.
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)));
}

/** The person and sensor conditions, then one per watched kind of the table of detection kinds (platform/kinds: vehicle, animal, …). */
export const WATCH_CONDITIONS: readonly string[] = ['person', 'unrecognized_person', 'recognized_person', 'door_open', 'motion', 'loitering', ...WATCHED_KINDS.map((k) => k.watch!.condition)];
export const RECURRENCES = ['none', 'daily', 'weekdays', 'weekends'] as const;
export const SENSOR_KINDS = ['camera', 'contact', 'motion'] as const;

const IsoTime = (description: string) => Type.String({ format: 'date-time', description });
const Condition = Type.Union(WATCH_CONDITIONS.map((c) => Type.Literal(c)));
const Recurrence = Type.Union(RECURRENCES.map((r) => Type.Literal(r)));
const SensorKindSchema = Type.Union(SENSOR_KINDS.map((k) => Type.Literal(k)));

const watchFields = {
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

const placeRef = {
  room: Type.Optional(Type.String({ minLength: 1, description: 'Room name' })),
  sensor_id: Type.Optional(Type.String({ minLength: 1, description: 'Sensor id' })),
};

export const toolSchemas = {
  create_watch: Type.Object(watchFields, { additionalProperties: false }),
  update_watch: Type.Object(
    {
      watch_id: Type.String({ minLength: 1 }),
      subject: Type.Optional(watchFields.subject),
      sensor_ids: Type.Optional(watchFields.sensor_ids),
      starts_at: Type.Optional(watchFields.starts_at),
      ends_at: Type.Optional(watchFields.ends_at),
      recurrence: Type.Optional(Recurrence),
      window: Type.Optional(watchFields.window),
      conditions: watchFields.conditions,
      person_ids: watchFields.person_ids,
    },
    { additionalProperties: false },
  ),
  stand_down_watch: Type.Object({ watch_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  list_watches: Type.Object({}, { additionalProperties: false }),
  mute_sensor: Type.Object({ sensor_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  unmute_sensor: Type.Object({ sensor_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  set_boundary: Type.Object(placeRef, { additionalProperties: false, description: 'Leave a room or sensor alone' }),
  clear_boundary: Type.Object(placeRef, { additionalProperties: false, description: 'Lift a boundary; only on explicit request' }),
  describe_scene: Type.Object(placeRef, { additionalProperties: false }),
  list_events: Type.Object(
    {
      since: Type.Optional(IsoTime('Only events at or after this time')),
      until: Type.Optional(IsoTime('Only events at or before this time (a period that is over: "last night")')),
      kind: Type.Optional(
        Type.String({ description: 'alert, observation, or a condition: ' + WATCH_CONDITIONS.join(', ') }),
      ),
      watch_id: Type.Optional(Type.String({ minLength: 1 })),
      // additive filters so "any cars in the driveway today?" keeps its place
      room: placeRef.room,
      sensor_id: placeRef.sensor_id,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    },
    { additionalProperties: false },
  ),
  add_sensor: Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      kind: SensorKindSchema,
      room: Type.String({ minLength: 1 }),
      source_url: Type.String({ minLength: 1, description: 'rtsp://, http(s):// (MJPEG or HLS) or sandbox:// address; webrtc://<name> for a phone or browser that publishes to Vigil (WHIP)' }),
      source_type: Type.Optional(Type.String({ description: 'the kind as the user said it: rtsp, http (MJPEG/HLS), webrtc (a WHIP publisher); omitted: taken from the URL, asked when unclear' })),
    },
    { additionalProperties: false },
  ),
  add_sensor_by_topic: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      kind: Type.Union([Type.Literal('contact'), Type.Literal('motion')], { description: 'contact: a door or window contact; motion: a motion or occupancy sensor' }),
      room: Type.String({ minLength: 1, maxLength: 100 }),
      topic: Type.String({ minLength: 1, maxLength: 1024, pattern: '^[^+#\\s]+$', description: "the device's own MQTT topic, e.g. zigbee2mqtt/back_door: no wildcards, no spaces" }),
    },
    { additionalProperties: false, description: "A Zigbee2MQTT sensor on the household's default MQTT broker, by its topic alone" },
  ),
  set_notification_routing: Type.Object(
    {
      scope: Type.Optional(Type.Union([Type.Literal('me'), Type.Literal('household')], { description: "me (default): the speaker's own; household: everyone's default (owners only)" })),
      quiet_hours: Type.Optional(
        Type.Union([
          Type.Object({ from: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }), to: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' }) }, { additionalProperties: false }),
          Type.Null(),
        ], { description: 'local HH:MM: nothing is sent from `from` until `to`; null: no quiet hours. "Only between 11pm and 7am" is from 07:00 to 23:00' }),
      ),
      paused: Type.Optional(Type.Boolean({ description: 'true: "stop the notifications"; false: "send them again"' })),
      exclude_add: Type.Optional(Type.Object({ rooms: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })), sensors: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })) }, { additionalProperties: false, description: 'rooms (names) and sensors (ids) no longer notified' })),
      exclude_remove: Type.Optional(Type.Object({ rooms: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })), sensors: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })) }, { additionalProperties: false, description: 'rooms and sensors notified again' })),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  set_household: Type.Object(
    {
      city: Type.Optional(Type.String({ minLength: 1 })),
      lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
      lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
      time_zone: Type.Optional(Type.String({ minLength: 1, description: 'IANA zone, e.g. Europe/Lisbon' })),
      rename_room: Type.Optional(
        Type.Object({ from: Type.String({ minLength: 1 }), to: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
      ),
      face_recognition: Type.Optional(
        Type.Boolean({ description: "The household's opt-in to face recognition (off by default): cameras compare faces with the enrolled people" }),
      ),
    },
    { additionalProperties: false },
  ),
} as const;

export type ToolName = keyof typeof toolSchemas;
export type ToolArgs<T extends ToolName> = Static<(typeof toolSchemas)[T]>;
export const TOOL_NAMES = Object.keys(toolSchemas) as ToolName[];

const descriptions: Record<ToolName, string> = {
  create_watch: 'Keep a room or sensors under observation during a window, once or recurring.',
  update_watch: 'Change the window, recurrence, subject or conditions of an active watch.',
  stand_down_watch: 'Stand a watch down at once.',
  list_watches: 'List the active watches.',
  mute_sensor: 'Mute a sensor: no events, no descriptions, cannot be watched.',
  unmute_sensor: 'Unmute a muted sensor.',
  set_boundary: 'Leave a room or sensor alone ("leave the nursery alone").',
  clear_boundary: 'Lift a boundary ("you can watch the nursery again"). Only on explicit request.',
  describe_scene: 'Describe what a room or sensor shows now.',
  list_events: 'List or search recent observations and alerts, newest first.',
  add_sensor: 'Add a real sensor at an address ("add the camera at rtsp://… as the garage camera").',
  add_sensor_by_topic: 'Add a door contact or motion sensor by its MQTT topic alone, on the household\'s default broker ("add the back door sensor, it\'s zigbee2mqtt/back_door").',
  set_notification_routing: 'Set when and for what the household is notified on its phones and addresses: quiet hours, rooms or sensors left out, paused or resumed.',
  set_household: "Set the home's city, coordinates or time zone, rename a room, or turn face recognition on or off.",
};

export interface ToolCall<T extends ToolName = ToolName> {
  tool: T;
  args: ToolArgs<T>;
}

const checkers = new Map<ToolName, TypeCheck<TSchema>>();
function getChecker(tool: ToolName): TypeCheck<TSchema> {
  let c = checkers.get(tool);
  if (!c) {
    c = TypeCompiler.Compile(toolSchemas[tool]);
    checkers.set(tool, c);
  }
  return c;
}

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(toolSchemas, name);
}

/** Validates a tool call's arguments; returns readable errors (empty when valid). */
export function validateToolArgs(tool: string, args: unknown): string[] {
  if (!isToolName(tool)) return [`unknown tool "${tool}"`];
  const checker = getChecker(tool);
  if (checker.Check(args)) {
    const a = args as Record<string, unknown>;
    // the schema cannot express "room or sensor_id, at least one"
    if (['set_boundary', 'clear_boundary', 'describe_scene'].includes(tool) && !a.room && !a.sensor_id) {
      return ['room or sensor_id is required'];
    }
    return [];
  }
  return [...checker.Errors(args)].slice(0, 5).map((e) => `${e.path || '/'}: ${e.message}`);
}

/** The catalogue as OpenAI chat-completions `tools` (function definitions). */
export function toOpenAiTools(): { type: 'function'; function: { name: string; description: string; parameters: unknown } }[] {
  return TOOL_NAMES.map((name) => ({
    type: 'function' as const,
    function: { name, description: descriptions[name], parameters: JSON.parse(JSON.stringify(toolSchemas[name])) as unknown },
  }));
}

/** Action type each tool logs (issue 4 §2); read-only tools log what they looked at. */
export const ACTION_TYPES: Record<ToolName, string> = {
  create_watch: 'watch.created',
  update_watch: 'watch.updated',
  stand_down_watch: 'watch.stood_down',
  list_watches: 'watches.listed',
  mute_sensor: 'sensor.muted',
  unmute_sensor: 'sensor.unmuted',
  set_boundary: 'boundary.set',
  clear_boundary: 'boundary.cleared',
  describe_scene: 'scene.described',
  list_events: 'events.listed',
  add_sensor: 'sensor.added',
  add_sensor_by_topic: 'sensor.added',
  set_notification_routing: 'notification_preferences.set',
  set_household: 'household.updated',
};
