import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery } from '../../platform/http/index.ts';
import { WATCHED_KINDS } from '../../platform/kinds/index.ts';

/** Kinds in the household event log; observations and alerts come from watches. */
export const EVENT_LOG_KINDS = [
  'observation',
  'alert',
  'watch.created',
  'watch.updated',
  'watch.stood_down',
  'sensor.muted',
  'sensor.unmuted',
  'boundary.set',
  'boundary.cleared',
] as const;
export type EventLogKind = (typeof EVENT_LOG_KINDS)[number];

/** Person and sensor observations, then one per watched kind of the table of detection kinds (platform/kinds: vehicle_detected, animal_detected, …). */
export const OBSERVATION_TYPES: readonly string[] = [
  'person_detected',
  'person_recognized',
  'door_opened',
  'motion',
  ...WATCHED_KINDS.map((k) => k.watch!.event),
];
export const ALERT_TYPES = ['unrecognized_person', 'loitering', 'motion_at_night', 'motion_while_away', 'door_opened_while_away'] as const;
export type ObservationType = string;
export type AlertType = (typeof ALERT_TYPES)[number];

export const EventSchema = Type.Object(
  {
    id: Type.String({ description: 'evt_…; the same id as the webhook delivery of this event' }),
    object: Type.Literal('event'),
    kind: Type.Union(
      EVENT_LOG_KINDS.map((k) => Type.Literal(k)),
      { description: 'observation, alert, or a change to watches, sensors or boundaries' },
    ),
    type: Type.String({
      description: `what happened: ${[...OBSERVATION_TYPES, ...ALERT_TYPES].join(', ')} (observations and alerts); the kind again for changes`,
      examples: ['door_opened'],
    }),
    watch_id: Type.Union([Type.String(), Type.Null()]),
    sensor_id: Type.Union([Type.String(), Type.Null()], { description: 'stream_… of the sensor, for observations and alerts' }),
    room: Type.Union([Type.String(), Type.Null()]),
    summary: Type.String({ description: 'one plain sentence', examples: ['The back door was opened.'] }),
    detection: Type.Union([
      Type.Object(
        {
          id: Type.String(),
          type: Type.String(),
          subtype: Type.Union([Type.String(), Type.Null()]),
          confidence: Type.Number(),
          location: Type.String(),
          timestamp: IsoTime,
          track_id: Type.Optional(Type.String()),
          dwell_s: Type.Optional(Type.Number()),
          person_id: Type.Optional(Type.String({ description: 'a recognized person (subtype recognized): the known person' })),
        },
        { additionalProperties: true },
      ),
      Type.Null(),
    ]),
    data: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], { description: 'details of a change (e.g. the watch or boundary)' }),
    occurred_at: IsoTime,
    created_at: IsoTime,
    count: Type.Integer({
      minimum: 1,
      description:
        'observations this event stands for: the observations (or alerts) of one watch with less than 5 minutes between them, of one type, sensor and person, are one event per visit that counts them; 1 for changes',
      examples: [14],
    }),
    first_seen_at: Type.Union([IsoTime, Type.Null()], { description: 'the first observation of the visit (= occurred_at); null for changes' }),
    last_seen_at: Type.Union([IsoTime, Type.Null()], { description: 'the latest observation of the visit so far; null for changes' }),
  },
  { $id: 'Event' },
);
export type EventView = Static<typeof EventSchema>;

export const EventList = ListOf(Type.Ref('Event'));
export const EventListQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({
      watch_id: Type.Optional(Type.String({ description: 'only events of this watch' })),
      kind: Type.Optional(Type.Union(EVENT_LOG_KINDS.map((k) => Type.Literal(k)))),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'only events that occurred at or after this instant' })),
    }),
  ],
  { additionalProperties: false },
);
export type EventListQueryT = Static<typeof EventListQuery>;
