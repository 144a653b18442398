import type { Camelize } from './core/casing.js';
import { Resource, type RequestOptions } from './core/resource.js';
import type { components } from './generated/schema.js';

type Schemas = components['schemas'];
/** The converse response (ConversationReply in openapi.json), camelCase. */
export type ConversationReply = Schemas extends { ConversationReply: infer R } ? Camelize<R> : Record<string, unknown>;
type ReplyAction = ConversationReply extends { actions: (infer A)[] } ? A : Record<string, unknown>;

interface StreamFrame<E extends string, D> {
  /** the SSE `event:` name */
  event: E;
  /** the SSE `id:` (the sequence number as text) */
  id: string | undefined;
  /** the frame's JSON data, camelCase */
  data: D & { type: E; sequenceNumber: number };
}

/** DESIGN.md "SSE": created first, reply deltas token by token, one action frame per action as it is taken, then completed. */
export type ConversationStreamEvent =
  | StreamFrame<'conversation.created', { conversation: { id: string; object: 'conversation'; messageId: string; created: boolean; createdAt: string } }>
  | StreamFrame<'reply.delta', { delta: string }>
  | StreamFrame<'action', { action: ReplyAction }>
  | StreamFrame<'conversation.completed', { conversation: ConversationReply }>;

export interface ConversationStreamParams {
  /** the user's sentence */
  message: string;
  /** conv_… to continue an existing conversation */
  conversationId?: string;
  [key: string]: unknown;
}

export declare class ConversationsBase extends Resource {
  /**
   * POST /v1/conversations with `Accept: text/event-stream`: yields each event as the agent works.
   * An `error` frame is thrown as a VigilError (code, status, requestId), like an error response.
   */
  stream(params: ConversationStreamParams, options?: RequestOptions): AsyncGenerator<ConversationStreamEvent, void, undefined>;
}
