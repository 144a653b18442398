import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, Name, Text, prefixedId, MAX_NAME_CHARS } from '../../platform/http/index.ts';

/** The longest note on an incident's timeline. */
const MAX_INCIDENT_NOTE_CHARS = 5000;

export const INCIDENT_STATUSES = ['open', 'acknowledged', 'resolved', 'dismissed'] as const;
export const INCIDENT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
/** A string enum that keeps its literal type in Static (Type.Union over a mapped array widens to string). */
const literals = <T extends readonly string[]>(xs: T, description?: string) =>
  Type.Unsafe<T[number]>(
    Type.Union(
      xs.map((x) => Type.Literal(x)),
      description ? { description } : {},
    ),
  );

const Actor = Type.Object({
  key_id: Type.Union([Type.String(), Type.Null()]),
  operator: Type.Union([Type.String(), Type.Null()], { description: 'X-Operator of the request, or the automation that acted' }),
});

const incidentFields = {
  id: prefixedId('incident'),
  object: Type.Literal('incident'),
  stream_id: Type.String(),
  scene_id: Type.String(),
  location: Type.String(),
  title: Type.String(),
  severity: literals(INCIDENT_SEVERITIES),
  status: literals(INCIDENT_STATUSES, 'open → acknowledged → resolved | dismissed'),
  source: literals(['manual', 'automatic'] as const, 'automatic incidents are opened by anomalies'),
  last_activity_at: IsoTime,
  acknowledged_at: Type.Union([IsoTime, Type.Null()]),
  closed_at: Type.Union([IsoTime, Type.Null()]),
  created_at: IsoTime,
  updated_at: IsoTime,
};

export const IncidentSchema = Type.Object(incidentFields, { $id: 'Incident' });
export type IncidentView = Static<typeof IncidentSchema>;

export const NoteSchema = Type.Object(
  {
    id: prefixedId('note'),
    object: Type.Literal('incident_note'),
    incident_id: Type.String(),
    body: Type.String(),
    author: Actor,
    created_at: IsoTime,
  },
  { $id: 'IncidentNote' },
);
export type NoteView = Static<typeof NoteSchema>;

export const TIMELINE_KINDS = ['detection', 'alert', 'note', 'protocol_run', 'action'] as const;

/** One entry of an incident's timeline; the member named by `kind` holds the details. */
export const TimelineEntrySchema = Type.Object({
  at: IsoTime,
  kind: literals(TIMELINE_KINDS),
  id: Type.String({ description: 'id of the detection, alert, note, protocol run or audit entry' }),
  detection: Type.Optional(Type.Ref('Detection')),
  alert: Type.Optional(Type.Ref('Alert')),
  note: Type.Optional(Type.Ref('IncidentNote')),
  protocol_run: Type.Optional(Type.Ref('ProtocolRun')),
  action: Type.Optional(
    Type.Object({
      action: Type.String({ examples: ['incident.updated', 'protocol_run.paused', 'protocol_run.escalated'] }),
      actor: Actor,
      resource_type: Type.String(),
      resource_id: Type.Union([Type.String(), Type.Null()]),
      data: Type.Optional(Type.Unknown({ description: 'before/after where relevant' })),
    }),
  ),
});
export type TimelineEntry = Static<typeof TimelineEntrySchema>;

export const IncidentDetailSchema = Type.Object({
  ...incidentFields,
  detection_count: Type.Integer(),
  timeline: Type.Array(TimelineEntrySchema, { description: 'detections, alerts, notes, protocol runs and operator actions in time order' }),
});

export const CreateIncidentBody = Type.Object(
  {
    stream_id: Type.String({ minLength: 1, description: 'the stream the incident is about (its location and scene)' }),
    title: Type.Optional(Name({ maxLength: MAX_NAME_CHARS })),
    severity: Type.Optional(literals(INCIDENT_SEVERITIES)),
    detection_ids: Type.Optional(
      Type.Array(Type.String({ pattern: '^det_' }), { maxItems: 100, uniqueItems: true, description: 'detections of this organization to attach' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateIncidentBodyT = Static<typeof CreateIncidentBody>;

export const UpdateIncidentBody = Type.Object(
  {
    status: Type.Optional(literals(INCIDENT_STATUSES, 'allowed: open → acknowledged, acknowledged → resolved or dismissed')),
    title: Type.Optional(Name({ maxLength: MAX_NAME_CHARS })),
    severity: Type.Optional(literals(INCIDENT_SEVERITIES)),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateIncidentBodyT = Static<typeof UpdateIncidentBody>;

export const CreateNoteBody = Type.Object({ body: Text({ maxLength: MAX_INCIDENT_NOTE_CHARS }) }, { additionalProperties: false });

export const IncidentIdParams = Type.Object({ id: Type.String({ description: 'incident_…' }) });
export const IncidentList = ListOf(Type.Ref('Incident'));
export const IncidentListQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({
      status: Type.Optional(literals(INCIDENT_STATUSES)),
      severity: Type.Optional(literals(INCIDENT_SEVERITIES)),
      source: Type.Optional(literals(['manual', 'automatic'] as const)),
      location: Type.Optional(Location),
      stream_id: Type.Optional(Type.String()),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'only incidents created at or after' })),
    }),
  ],
  { additionalProperties: false },
);
export type IncidentListQueryT = Static<typeof IncidentListQuery>;
