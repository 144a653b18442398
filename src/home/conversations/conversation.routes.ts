import { CONCURRENT_STREAMS_PER_KEY, actorOf, principalOf, ListQuery, withErrors, buildProblem, SseStream } from '../../platform/http/index.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Clock } from '../../platform/time/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import type { ConversationService } from './conversation.service.ts';
import { ConversationBody, ConversationDetailSchema, ConversationIdParams, ConversationList, type ConversationBodyT } from './conversation.schemas.ts';
import { keepSlotRenewed, type HeldStreams, type StreamSlots } from '../../platform/coordination/index.ts';
import { heldSessionOf } from '../../platform/console/index.ts';

const tags = ['Conversations'];
const security = [{ bearerAuth: [] }];

function wantsEventStream(req: FastifyRequest): boolean {
  return String(req.headers.accept ?? '')
    .toLowerCase()
    .includes('text/event-stream');
}

type ConversationDeps = { slots: StreamSlots; clock: Clock; publicBaseUrl: string; streamLimit?: number; held?: HeldStreams };

/** A reply streamed as server-sent events: refused before the first byte, or opened, run and closed with its slot. */
async function streamConversation(
  conversations: ConversationService,
  deps: ConversationDeps,
  limit: number,
  req: FastifyRequest,
  reply: FastifyReply,
  body: ConversationBodyT,
): Promise<FastifyReply> {
  const principal = principalOf(req);
  const actor = actorOf(req);
  // everything that can be refused is refused before the first stream byte (docs/design.md "Rate limits")
  conversations.validateMessage(body.message);
  const acquired = await deps.slots.tryAcquire(principal.keyId, limit);
  if (!acquired) {
    throw new VigilError('concurrent_stream_limit_exceeded', `This key already has ${limit} streamed replies open; close one first.`);
  }
  // the slot is a lease: renewed while the stream is open, so a shared store frees it if this node dies
  const releaseSlot = keepSlotRenewed(acquired);
  const slot = { release: () => void releaseSlot().catch((err) => req.log.warn({ err }, 'stream slot release failed')) };
  let opened;
  try {
    opened = await conversations.open(principal, body);
  } catch (err) {
    slot.release();
    throw err;
  }

  reply.hijack();
  const sse = new SseStream(reply.raw, deps.clock);
  const aborted = new AbortController();
  // revoking or rotating the key, signing the console session out, or its expiry, ends the stream and the steps
  // not yet taken (docs/decisions.md, "Revocation ends what the key holds")
  const unhold = deps.held?.hold(
    principal.keyId,
    () => {
      aborted.abort();
      sse.end();
    },
    heldSessionOf(req, deps.clock.now()),
  );
  reply.raw.on('close', () => {
    unhold?.();
    // a client that goes away frees its slot at once; the steps not yet taken are not taken
    slot.release();
    sse.stopPing();
    if (!reply.raw.writableFinished) aborted.abort();
  });
  sse.start({ ...reply.getHeaders(), 'x-request-id': String(req.id) });
  sse.send('conversation.created', {
    conversation: {
      id: opened.conversation.id,
      object: 'conversation',
      message_id: opened.turn.id,
      created: opened.created,
      created_at: opened.conversation.created_at,
    },
  });
  try {
    const done = await conversations.run(
      principal,
      actor,
      opened,
      {
        onAction: (action) => sse.send('action', { action }),
        onText: (delta) => sse.send('reply.delta', { delta }),
      },
      aborted.signal,
    );
    sse.send('conversation.completed', { conversation: done });
  } catch (err) {
    const known =
      err instanceof VigilError ? err : new VigilError('internal_error', 'Something went wrong on our side; the request id identifies it in our logs.');
    if (!(err instanceof VigilError)) req.log.error({ err }, 'streamed conversation failed');
    sse.send('error', { error: buildProblem(deps.publicBaseUrl, known, String(req.id)) });
  } finally {
    sse.end();
    slot.release();
  }
  return reply;
}

export const conversationRoutes =
  (conversations: ConversationService, deps: ConversationDeps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const limit = deps.streamLimit ?? CONCURRENT_STREAMS_PER_KEY;

    app.post(
      '/v1/conversations',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'converse',
          summary: 'Tell the household agent what you want',
          description:
            'The agent reads the message, chooses its own tools, acts, and answers with its reply and every action taken, in order. ' +
            'Pass conversation_id to continue a conversation. With `Accept: text/event-stream` the answer is streamed as server-sent events: ' +
            '`conversation.created` first, `reply.delta` tokens, one `action` frame as each action is taken, then `conversation.completed` ' +
            'with this same JSON body under `conversation` (or `error` with a problem object under `error`); `: ping` every 15 s. ' +
            `At most ${CONCURRENT_STREAMS_PER_KEY} streams per key are open at once; revoking or rotating the key ends its open streams within a second.`,
          body: ConversationBody,
          response: withErrors({ 200: Type.Ref('ConversationReply') }),
        },
      },
      async (req, reply) => {
        const principal = principalOf(req);
        const actor = actorOf(req);
        if (!wantsEventStream(req)) return conversations.converse(principal, actor, req.body);
        return streamConversation(conversations, deps, limit, req, reply, req.body);
      },
    );

    app.get(
      '/v1/conversations',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'listConversations',
          summary: 'List conversations, newest first',
          querystring: ListQuery,
          response: withErrors({ 200: ConversationList }),
        },
      },
      async (req) => conversations.list(principalOf(req), req.query),
    );

    app.get(
      '/v1/conversations/:id',
      {
        config: { surface: 'household' },
        schema: {
          tags,
          security,
          operationId: 'getConversation',
          summary: 'A conversation with its whole history',
          description: 'Each message in order, with the reply and the actions taken for it.',
          params: ConversationIdParams,
          response: withErrors({ 200: ConversationDetailSchema }),
        },
      },
      async (req) => conversations.get(principalOf(req), req.params.id),
    );
  };
