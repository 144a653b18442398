import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, Name, prefixedId } from '../../platform/http/index.ts';
import { ANIMAL_KINDS } from '../detections/index.ts';
import { ScheduleSchema } from '../automation/index.ts';

/** What a rule watches for (issue 3 §1). Counts compare strictly ("above"); density and dwell are "at least". */
export const RuleConditionSchema = Type.Union(
  [
    Type.Object(
      { type: Type.Literal('person_count'), above: Type.Integer({ minimum: 0, maximum: 100_000, description: 'fires when more than this many people are present' }) },
      { additionalProperties: false, title: 'person_count above N' },
    ),
    Type.Object(
      { type: Type.Literal('crowd_density'), at_least: Type.Number({ exclusiveMinimum: 0, maximum: 100, description: 'fires when people ÷ capacity reaches this fraction' }) },
      { additionalProperties: false, title: 'crowd_density at or above x' },
    ),
    Type.Object(
      {
        type: Type.Literal('person'),
        subtype: Type.Optional(
          Type.Union([Type.Literal('recognized'), Type.Literal('unrecognized')], {
            description: 'recognized: the face matched an enrolled person; unrecognized: a face was seen and matched nobody (needs face_recognition on). Any person, face seen or not, when absent',
            examples: ['unrecognized'],
          }),
        ),
        person_id: Type.Optional(prefixedId('person', 'only this enrolled person (POST /v1/people), recognized by face; implies subtype recognized')),
      },
      { additionalProperties: false, title: 'a person (of a subtype)' },
    ),
    Type.Object(
      { type: Type.Literal('vehicle'), above: Type.Integer({ minimum: 0, maximum: 100_000, description: 'fires when more than this many vehicles are present' }) },
      { additionalProperties: false, title: 'vehicle count above N' },
    ),
    Type.Object(
      {
        type: Type.Literal('animal'),
        subtype: Type.Optional(Type.Union(ANIMAL_KINDS.map((k) => Type.Literal(k)), { description: 'only this animal; a cat or a dog when absent' })),
      },
      { additionalProperties: false, title: 'an animal (cat or dog)' },
    ),
    Type.Object(
      { type: Type.Literal('dwell'), min_s: Type.Number({ exclusiveMinimum: 0, maximum: 86_400, description: 'fires when a tracked person has stayed at least this many seconds (loitering)' }) },
      { additionalProperties: false, title: 'dwell (loitering) of at least S seconds' },
    ),
  ],
  { description: 'the detection condition; `type` selects the kind' },
);
export type RuleConditionT = Static<typeof RuleConditionSchema>;

/**
 * How a stored condition that no longer reads as one is shown (issue 9 §5: e.g. a threshold an
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
const StreamIds = Type.Array(Type.String({ pattern: '^stream_' }), { minItems: 1, maxItems: 100, uniqueItems: true, description: 'only detections of these streams; all when null' });

export const CreateAlertRuleBody = Type.Object(
  {
    name: Name({ maxLength: 200, examples: ['Lobby over capacity'] }),
    condition: RuleConditionSchema,
    min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, default: 0, description: 'ignore detections less certain than this' })),
    locations: Type.Optional(nullable(Locations)),
    stream_ids: Type.Optional(nullable(StreamIds)),
    schedule: Type.Optional(nullable(ScheduleSchema)),
    cooldown_s: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400, default: 300, description: 'after firing at a location the rule stays quiet there this long' })),
  },
  { additionalProperties: false },
);
export type CreateAlertRuleBodyT = Static<typeof CreateAlertRuleBody>;

export const UpdateAlertRuleBody = Type.Object(
  {
    name: Type.Optional(Name({ maxLength: 200 })),
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
