import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Clock } from '../../platform/time/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import { principalOf, withErrors, ProblemRef, SseStream, CONCURRENT_STREAMS_PER_KEY } from '../../platform/http/index.ts';
import { keepSlotRenewed, type HeldStreams, type StreamSlots } from '../../platform/coordination/index.ts';
import { heldSessionOf } from '../../platform/console/index.ts';
import { SCENE_UPDATE_PERIOD_MS, visibleKinds, type OrgEventFeed } from './org-event-feed.ts';

/**
 * `GET /v1/events/stream`: the organization's events as server-sent
 * events, for the console's wall and for integrators. Frames follow docs/design.md "SSE"; an open feed
 * holds one of the key's concurrent stream slots, like a streamed conversation reply.
 */
export const orgEventStreamRoutes =
  (feed: OrgEventFeed, deps: { slots: StreamSlots; clock: Clock; streamLimit?: number; held?: HeldStreams }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const limit = deps.streamLimit ?? CONCURRENT_STREAMS_PER_KEY;
    app.get(
      '/v1/events/stream',
      {
        config: { surface: 'organization' },
        schema: {
          tags: ['Live'],
          security: [{ bearerAuth: [] }],
          operationId: 'streamOrganizationEvents',
          summary: 'The organization’s events, live, as server-sent events',
          description:
            'Send `Accept: text/event-stream` (as EventSource does; anything else gets 406 not_acceptable). The first frame is `ready`; then one frame per event, named by its kind: ' +
            `\`scene.updated\` (a scene's counts after detections, at most one per scene every ${SCENE_UPDATE_PERIOD_MS} ms, with the latest detection, and with \`frame\` when real video reported objects in the period: the latest frame's snapshot detection id, stream, time and its objects' boxes) and the organization webhook kinds ` +
            '(`alert.fired`, `incident.created`, `incident.updated`, `protocol.triggered`, `protocol.state_changed`, `stream.status_changed`, `detection.anomaly`) with the same payload as the webhook under `data`. ' +
            'A key sees the kinds its read capabilities cover (scenes:read, alerts:read, incidents:read, streams:read) at its locations only. `: ping` every 15 s. ' +
            `An open feed counts toward the key's ${limit} concurrent streams (429 concurrent_stream_limit_exceeded). Revoking or rotating the key ends the feed within a second, on every node. It is a live view, not a log: after reconnecting, re-read state through the API.`,
          response: {
            ...withErrors({
              200: Type.Unsafe<string>({ description: 'server-sent events', content: { 'text/event-stream': { schema: { type: 'string' } } } }),
            }),
            406: ProblemRef,
          },
        },
      },
      async (req, reply) => {
        if (
          !String(req.headers.accept ?? '')
            .toLowerCase()
            .includes('text/event-stream')
        ) {
          throw new VigilError('not_acceptable', 'This is an event stream: send Accept: text/event-stream.', { param: 'Accept' });
        }
        const principal = principalOf(req);
        const slot = await deps.slots.tryAcquire(principal.keyId, limit);
        if (!slot) throw new VigilError('concurrent_stream_limit_exceeded', `This key already has ${limit} streams open; close one first.`);
        // the slot is a lease: renewed while the feed is open (it would otherwise stop counting after its ttl), freed by a dead node's silence
        const releaseSlot = keepSlotRenewed(slot);

        reply.hijack();
        const sse = new SseStream(reply.raw, deps.clock);
        const unsubscribe = feed.subscribe(principal, (e) =>
          sse.send(e.kind, { id: e.id, created_at: e.created_at, location: e.location ?? null, data: e.data }),
        );
        // revoking or rotating the key, signing the console session out, or its expiry, ends the feed (docs/decisions.md, "Revocation ends what the key holds")
        const unhold = deps.held?.hold(
          principal.keyId,
          () => {
            unsubscribe();
            sse.end();
          },
          heldSessionOf(req, deps.clock.now()),
        );
        reply.raw.on('close', () => {
          unhold?.();
          unsubscribe();
          releaseSlot().catch((err) => req.log.warn({ err }, 'stream slot release failed'));
          sse.stopPing();
        });
        sse.start({ ...reply.getHeaders(), 'x-request-id': String(req.id) });
        sse.send('ready', { kinds: visibleKinds(principal), locations: principal.locations });
      },
    );
  };
