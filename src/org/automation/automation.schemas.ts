import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, Name, MAX_TIME_ZONE_CHARS } from '../../platform/http/index.ts';
import { WEEKDAYS } from './local-schedule.ts';

/** A weekly window: days it starts on, local start/end ("HH:MM"), optional IANA zone. */
export type ScheduleT = Static<typeof ScheduleSchema>;
export const ScheduleSchema = Type.Object(
  {
    days: Type.Optional(
      Type.Array(Type.Union(WEEKDAYS.map((d) => Type.Literal(d))), {
        uniqueItems: true,
        minItems: 1,
        maxItems: 7,
        description: 'weekdays the window starts on; all when absent',
      }),
    ),
    start: Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'local time the window opens, HH:MM', examples: ['22:00'] }),
    end: Type.String({
      pattern: '^(([01]\\d|2[0-3]):[0-5]\\d|24:00)$',
      description: 'local time it closes, HH:MM; earlier than start spans midnight (22:00–06:00)',
      examples: ['06:00'],
    }),
    time_zone: Type.Optional(
      Name({ maxLength: MAX_TIME_ZONE_CHARS, description: 'IANA time zone; default: each location’s scene time zone', examples: ['Europe/Lisbon'] }),
    ),
  },
  { additionalProperties: false },
);

export const AutomationSchema = Type.Object(
  {
    object: Type.Literal('automation'),
    incidents: Type.Object({
      paused: Type.Boolean({ description: 'automatic incidents from anomalies are not created while paused' }),
      gap_s: Type.Integer({ description: 'anomalies at one location within this many seconds of the last join the same automatic incident' }),
    }),
    escalation: Type.Object({
      paused: Type.Boolean({ description: 'no protocol run escalates automatically while paused' }),
      after_s: Type.Integer({ description: 'an unacknowledged active protocol run escalates one level after this many seconds' }),
    }),
    business_hours: ScheduleSchema,
    face_recognition: Type.Boolean({
      description:
        'phone frames are searched for the faces of enrolled people (POST /v1/people/{id}/faces); off by default, and while off no face descriptor is computed',
    }),
    updated_at: Type.Union([IsoTime, Type.Null()]),
  },
  { $id: 'Automation' },
);
export type AutomationView = Static<typeof AutomationSchema>;

export const UpdateAutomationBody = Type.Object(
  {
    incident_gap_s: Type.Optional(Type.Integer({ minimum: 10, maximum: 86_400 })),
    escalation_after_s: Type.Optional(Type.Integer({ minimum: 10, maximum: 86_400 })),
    business_hours: Type.Optional(ScheduleSchema),
    face_recognition: Type.Optional(Type.Boolean({ description: 'turn face recognition on or off for the organization (a privacy opt-in; default false)' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAutomationBodyT = Static<typeof UpdateAutomationBody>;

export const AutomationTarget = Type.Object({
  target: Type.Union([Type.Literal('incidents'), Type.Literal('escalation')], { description: 'which automation: automatic incidents or automatic escalation' }),
});
