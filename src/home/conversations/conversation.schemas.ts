import { Type, type Static } from '@sinclair/typebox';
import { listActionTypes, MAX_MESSAGE_CHARS } from '../agent/index.ts';
import { IsoTime, ListOf, Text } from '../../platform/http/index.ts';

/** Longest message the agent reads: the planner's own limit (agent/plan.ts). */
export { MAX_MESSAGE_CHARS };

export const ConversationIdParams = Type.Object({ id: Type.String({ description: 'conv_…' }) });

export const ConversationBody = Type.Object(
  {
    message: Text({
      maxLength: MAX_MESSAGE_CHARS,
      description: 'what you want, in plain words',
      examples: ['keep an eye on the back door from sunset to sunrise'],
    }),
    conversation_id: Type.Optional(Type.String({ description: 'conv_… of the conversation to continue; follow-ups resolve against it' })),
  },
  { additionalProperties: false },
);
export type ConversationBodyT = Static<typeof ConversationBody>;

/** One action the agent took (openapi.json's `Action`). watch.created carries id, subject, window, starts_at, ends_at and recurrence. */
export const ActionSchema = Type.Object(
  {
    type: Type.String({
      // every action type of the table of agent tools (agent/tools/table.ts)
      description: listActionTypes().join(', '),
      examples: ['watch.created'],
    }),
    id: Type.Optional(Type.String({ description: 'id of what the action made or changed (wat_… for watches)' })),
    subject: Type.Optional(Type.String({ examples: ['back door'] })),
    window: Type.Optional(Type.String({ examples: ['sunset to sunrise'] })),
    starts_at: Type.Optional(IsoTime),
    ends_at: Type.Optional(IsoTime),
    recurrence: Type.Optional(Type.String()),
    as_of: Type.Optional(
      Type.Union([IsoTime, Type.Null()], { description: 'scene.described: when the counts are from (the last reading when its cameras are not live)' }),
    ),
    sources_live: Type.Optional(Type.Boolean({ description: 'scene.described: at least one camera described is live' })),
    stale: Type.Optional(
      Type.Boolean({
        description: 'scene.described: no camera has been live for longer than the silence threshold; the reply gives the last reading and its time',
      }),
    ),
    sightings: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'events.listed: recorded detections of the place in the period the answer was made from (not only watch events)',
      }),
    ),
    until: Type.Optional(IsoTime),
    readings_since: Type.Optional(
      Type.Union([IsoTime, Type.Null()], { description: 'events.listed: the first reading of the sensors asked about; null when they have none' }),
    ),
    not_looking: Type.Optional(
      Type.Array(Type.String(), { description: 'events.listed: sensors muted, left alone or offline for part of the period (the reply says which part)' }),
    ),
  },
  { $id: 'Action', additionalProperties: true },
);

export const ConversationReplySchema = Type.Object(
  {
    id: Type.String({ description: 'conv_…; pass it as conversation_id to continue' }),
    object: Type.Literal('conversation'),
    message_id: Type.String({ description: 'msg_… of this turn in the conversation history' }),
    reply: Type.String({ description: "the agent's answer" }),
    actions: Type.Array(Type.Ref('Action'), { description: 'every action taken, in order' }),
    planner: Type.String({ description: 'which planner chose the actions: offline or llm' }),
    created_at: IsoTime,
  },
  { $id: 'ConversationReply' },
);
export type ConversationReply = Static<typeof ConversationReplySchema>;

export const MessageSchema = Type.Object({
  id: Type.String({ description: 'msg_…' }),
  object: Type.Literal('message'),
  message: Type.String({ description: 'what the person wrote' }),
  reply: Type.String(),
  actions: Type.Array(Type.Ref('Action')),
  planner: Type.String(),
  status: Type.Union([Type.Literal('in_progress'), Type.Literal('completed'), Type.Literal('interrupted')], {
    description: 'interrupted: the streaming client went away or the turn failed; the actions listed were taken',
  }),
  created_at: IsoTime,
  completed_at: Type.Union([IsoTime, Type.Null()]),
  redacted: Type.Optional(
    Type.Boolean({
      description:
        'present (true) when the reply showed a place the household has since asked to leave alone: the reply is replaced and ' +
        'scene.described / events.listed actions keep only their type and subject, until an owner lifts the boundary',
    }),
  ),
});
export type MessageView = Static<typeof MessageSchema>;

const summaryFields = {
  id: Type.String(),
  object: Type.Literal('conversation'),
  title: Type.String({ description: 'the first message, shortened' }),
  message_count: Type.Integer(),
  created_at: IsoTime,
  updated_at: IsoTime,
};
export const ConversationSummarySchema = Type.Object(summaryFields);
export type ConversationSummary = Static<typeof ConversationSummarySchema>;

export const ConversationDetailSchema = Type.Object({
  ...summaryFields,
  messages: Type.Array(MessageSchema, { description: 'the whole history in order: each message, its reply and its actions' }),
});
export type ConversationDetail = Static<typeof ConversationDetailSchema>;

export const ConversationList = ListOf(ConversationSummarySchema);
