import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, prefixedId } from '../../platform/http/index.ts';
import { RuleConditionViewSchema } from './alert-rule.schemas.ts';

export const AlertSchema = Type.Object(
  {
    id: prefixedId('alert'),
    object: Type.Literal('alert'),
    rule_id: Type.String(),
    rule_name: Type.String(),
    status: Type.Union([Type.Literal('open'), Type.Literal('acknowledged')]),
    stream_id: Type.String(),
    scene_id: Type.String(),
    location: Type.String(),
    incident_id: Type.Union([Type.String(), Type.Null()], { description: 'the incident being worked at the location when the alert fired' }),
    condition: RuleConditionViewSchema,
    observed: Type.Union([Type.Number(), Type.Null()], {
      description: 'the value that met the condition (people, density, vehicles, dwell seconds); null for a person match',
    }),
    detection: Type.Ref('Detection'),
    fired_at: IsoTime,
    acknowledged_at: Type.Union([IsoTime, Type.Null()]),
    acknowledged_by: Type.Union([
      Type.Object({ key_id: Type.Union([Type.String(), Type.Null()]), operator: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ]),
  },
  { $id: 'Alert' },
);
export type AlertView = Static<typeof AlertSchema>;

export const AlertIdParams = Type.Object({ id: Type.String({ description: 'alert_…' }) });
export const AlertList = ListOf(Type.Ref('Alert'));
export const AlertListQuery = Type.Composite(
  [
    ListQuery,
    Type.Object({
      rule_id: Type.Optional(Type.String()),
      status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('acknowledged')])),
      location: Type.Optional(Location),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'only alerts fired at or after' })),
    }),
  ],
  { additionalProperties: false },
);
export type AlertListQueryT = Static<typeof AlertListQuery>;
