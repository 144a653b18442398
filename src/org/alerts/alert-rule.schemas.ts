import { Type, type Static, type TLiteral, type TObject, type TSchema } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, Name, prefixedId, MAX_NAME_CHARS } from '../../platform/http/index.ts';
import { ALERT_CONDITIONS } from '../../platform/kinds/index.ts';
import { ScheduleSchema } from '../automation/index.ts';

/**
 * What a rule watches for: the conditions of the table of detection kinds (platform/kinds), in its
 * order. Counts compare strictly ("above"); density and dwell are "at least".
 */
export const RuleConditionSchema = Type.Union(
  // typed by what every condition has, its `type`; each kind's schema checks the rest
  ALERT_CONDITIONS.map((c) => c.schema as TObject<{ type: TLiteral<string> }>),
  { description: 'the detection condition; `type` selects the kind' },
);
/** A condition as a request gives it: `type` names it, the rest is its own (the kind's schema checks it). */
export type RuleConditionT = { type: string; [field: string]: unknown };

/**
 * How a stored condition that no longer reads as one is shown (e.g. a threshold an
 * older version stored as null). The rule never fires; PATCH a condition to repair it.
 */
export const UnreadableConditionSchema = Type.Object(
  { type: Type.Literal('unreadable'), detail: Type.String({ description: 'why the stored condition cannot be used' }) },
  { title: 'a stored condition that cannot be read (never fires)' },
);
export type UnreadableConditionT = Static<typeof UnreadableConditionSchema>;
/** conditions as responses show them */
export const RuleConditionViewSchema = Type.Union([...RuleConditionSchema.anyOf, UnreadableConditionSchema], {
  description: 'the detection condition; `type` selects the kind (`unreadable`: a stored condition that cannot be used; it never fires)',
});

const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Locations = Type.Array(Location, { minItems: 1, maxItems: 100, uniqueItems: true, description: 'only these locations; all when null' });
const StreamIds = Type.Array(Type.String({ pattern: '^stream_' }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'only detections of these streams; all when null',
});

export const CreateAlertRuleBody = Type.Object(
  {
    name: Name({ maxLength: MAX_NAME_CHARS, examples: ['Lobby over capacity'] }),
    condition: RuleConditionSchema,
    min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0, description: 'ignore detections less certain than this' })),
    locations: Type.Optional(nullable(Locations)),
    stream_ids: Type.Optional(nullable(StreamIds)),
    schedule: Type.Optional(nullable(ScheduleSchema)),
    cooldown_s: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 86_400, default: 300, description: 'after firing at a location the rule stays quiet there this long' }),
    ),
  },
  { additionalProperties: false },
);
export type CreateAlertRuleBodyT = Static<typeof CreateAlertRuleBody>;

export const UpdateAlertRuleBody = Type.Object(
  {
    name: Type.Optional(Name({ maxLength: MAX_NAME_CHARS })),
    condition: Type.Optional(RuleConditionSchema),
    min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    locations: Type.Optional(nullable(Locations)),
    stream_ids: Type.Optional(nullable(StreamIds)),
    schedule: Type.Optional(nullable(ScheduleSchema)),
    cooldown_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateAlertRuleBodyT = Static<typeof UpdateAlertRuleBody>;

export const AlertRuleSchema = Type.Object(
  {
    id: prefixedId('rule'),
    object: Type.Literal('alert_rule'),
    name: Type.String(),
    condition: RuleConditionViewSchema,
    min_confidence: Type.Number(),
    locations: Type.Union([Type.Array(Type.String()), Type.Null()]),
    stream_ids: Type.Union([Type.Array(Type.String()), Type.Null()]),
    schedule: Type.Union([ScheduleSchema, Type.Null()]),
    cooldown_s: Type.Integer(),
    status: Type.Union([Type.Literal('active'), Type.Literal('paused')], { description: 'a paused rule does not fire until resumed' }),
    created_at: IsoTime,
    updated_at: IsoTime,
  },
  { $id: 'AlertRule' },
);
export type AlertRuleView = Static<typeof AlertRuleSchema>;

export const AlertRuleIdParams = Type.Object({ id: Type.String({ description: 'rule_…' }) });
export const AlertRuleList = ListOf(Type.Ref('AlertRule'));
export const DeletedAlertRule = Type.Object({ id: Type.String(), object: Type.Literal('alert_rule'), deleted: Type.Literal(true) });
export { ListQuery as AlertRuleListQuery };
