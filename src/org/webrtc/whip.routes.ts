import { PublishInfoSchema, StreamIdParams } from '../streams/index.ts';
import { readFileSync } from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import type { IceServer } from '../../platform/config/index.ts';
import {
  NoContent,
  RevokedPublishToken,
  WhipPublishQuery,
  SdpAnswer,
  SdpOffer,
  SessionEnded,
  TrickleFragment,
  WhipDoc,
  WhipSessionParams,
  WhipStreamParams,
} from './whip.schemas.ts';
import type { WhipService } from './whip.service.ts';

const tags = ['Streams'];
const security = [{ bearerAuth: [] }];

/** Publish-token management with the API key (JSON, in the OpenAPI document and the clients). */
export const publishTokenRoutes =
  (whip: WhipService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/streams/:id/publish-token',
      {
        config: { surface: 'organization', capability: 'streams:write' },
        schema: {
          tags,
          security,
          operationId: 'rotateStreamPublishToken',
          summary: 'Issue a new WHIP publish token for a webrtc stream',
          description: 'The new token is shown once; the previous one stops working and a publisher using it is disconnected.',
          params: StreamIdParams,
          response: withErrors({ 201: PublishInfoSchema }),
        },
      },
      async (req, reply) => reply.code(201).send(await whip.rotateToken(principalOf(req), actorOf(req), req.params.id)),
    );

    app.delete(
      '/v1/streams/:id/publish-token',
      {
        config: { surface: 'organization', capability: 'streams:write' },
        schema: {
          tags,
          security,
          operationId: 'revokeStreamPublishToken',
          summary: "Revoke a webrtc stream's WHIP publish token",
          description: 'WHIP requests with the token are refused from now on (publish_token_revoked) and a live publisher is disconnected.',
          params: StreamIdParams,
          response: withErrors({ 200: RevokedPublishToken }),
        },
      },
      async (req) => whip.revokeToken(principalOf(req), actorOf(req), req.params.id),
    );
  };

/** RFC 9725 §4.6: the ICE servers a WHIP client may use, as Link headers on the answer. */
function iceLinks(servers: readonly IceServer[]): string[] {
  const q = (v: string) => `"${v.replace(/["\\]/g, '\\$&')}"`;
  return servers.flatMap((s) =>
    s.urls.map(
      (u) => `<${u}>; rel="ice-server"${s.username ? `; username=${q(s.username)}; credential=${q(s.credential ?? '')}; credential-type="password"` : ''}`,
    ),
  );
}

const MAX_SDP_BYTES = 64 * 1024;

/** The WHIP handlers: publish, trickle and end a session here, or forward the request to the stream's owner. */
function whipHandlers(whip: WhipService, links: string[]) {
  const asText = (body: unknown): string => {
    if (typeof body !== 'string')
      throw new VigilError('unsupported_media_type', 'Send the SDP offer as Content-Type: application/sdp.', { param: 'Content-Type' });
    return body;
  };

  const publish = async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    const takeover = (req.query as { takeover?: unknown } | undefined)?.takeover === 'true';
    const out = await whip.publish(req.params.id, req.headers.authorization, asText(req.body), { takeover });
    if (links.length) reply.header('Link', links);
    return reply
      .code(201)
      .header('Location', out.location)
      .header('ETag', out.etag)
      .header('Accept-Patch', 'application/trickle-ice-sdpfrag')
      .type('application/sdp')
      .send(Buffer.from(out.answer));
  };
  const trickle = async (req: FastifyRequest<{ Params: { id: string; session: string } }>, reply: FastifyReply) => {
    const ifMatch = req.headers['if-match'];
    await whip.trickle(req.params.id, req.params.session, req.headers.authorization, typeof ifMatch === 'string' ? ifMatch : undefined, asText(req.body));
    return reply.code(204).send();
  };
  const end = async (req: FastifyRequest<{ Params: { id: string; session: string } }>, reply: FastifyReply) => {
    await whip.end(req.params.id, req.params.session, req.headers.authorization);
    return reply.code(200).send();
  };

  /**
   * Cluster mode: a WHIP request for a stream another node runs goes to that node, whose answer
   * (and ICE candidates) the publisher gets, so its media flows to the owner (docs/deployment.md,
   * "Forwarding to a stream's owner"). Answers false when this node handles it.
   */
  const forwarded = async (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<boolean> => {
    const owner = await whip.ownerElsewhere(req.params.id);
    if (!owner) return false;
    const headers: Record<string, string> = {};
    for (const h of ['authorization', 'content-type', 'if-match']) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const res = await whip.forward(owner, {
      method: req.method as 'POST' | 'PATCH' | 'DELETE',
      path: `/internal${req.url}`,
      headers,
      body: typeof req.body === 'string' ? req.body : undefined,
    });
    reply.code(res.status);
    for (const h of ['content-type', 'location', 'etag', 'accept-patch', 'link', 'retry-after']) {
      const v = res.headers.get(h);
      if (v) reply.header(h, v);
    }
    await reply.send(Buffer.from(await res.arrayBuffer()));
    return true;
  };
  return { publish, trickle, end, forwarded };
}

/** The /internal routes by which another node of the cluster hands this one a WHIP request. */
function registerPeerRoutes(app: RouteApp, whip: WhipService, handlers: Pick<ReturnType<typeof whipHandlers>, 'publish' | 'trickle' | 'end'>): void {
  const { publish, trickle, end } = handlers;
  // the same, forwarded by another node of the cluster (signed by it); handled here, never forwarded again
  const fromPeer = (req: FastifyRequest) =>
    whip.verifyPeer({ method: req.method, url: req.url, headers: req.headers, body: typeof req.body === 'string' ? req.body : undefined });
  app.post<{ Params: { id: string } }>('/internal/v1/streams/:id/whip', { schema: { hide: true } }, async (req, reply) => {
    fromPeer(req);
    return publish(req, reply);
  });
  app.patch<{ Params: { id: string; session: string } }>(
    '/internal/v1/streams/:id/whip/:session',
    { schema: { hide: true, params: WhipSessionParams } },
    async (req, reply) => {
      fromPeer(req);
      return trickle(req, reply);
    },
  );
  // the publish token was revoked or rotated through another node: the live publisher here is cut off
  app.delete<{ Params: { id: string }; Querystring: { reason?: string } }>('/internal/v1/streams/:id/publisher', { schema: { hide: true } }, async (req) => {
    fromPeer(req);
    const reason = typeof req.query.reason === 'string' ? req.query.reason.slice(0, 200) : 'the publish token was revoked';
    return { ended_session: await whip.cutOffHere(req.params.id, reason) };
  });
  app.delete<{ Params: { id: string; session: string } }>(
    '/internal/v1/streams/:id/whip/:session',
    { schema: { hide: true, params: WhipSessionParams } },
    async (req, reply) => {
      fromPeer(req);
      return end(req, reply);
    },
  );
}

/**
 * The WHIP protocol endpoint (RFC 9725), authenticated by the stream's publish token rather than
 * an API key. Its bodies are SDP, not JSON, so it is its own plugin with its own parsers. It is
 * described in the OpenAPI document but left out of the generated clients (`x-vigil-client: false`),
 * because WebRTC stacks and WHIP clients (OBS, GStreamer, the publish page) speak it. Errors are
 * problem+json as everywhere.
 */
export const whipRoutes =
  (whip: WhipService, opts: { iceServers: readonly IceServer[] }): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.removeAllContentTypeParsers();
    for (const type of ['application/sdp', 'application/trickle-ice-sdpfrag']) {
      app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: MAX_SDP_BYTES }, (_req, body, done) => done(null, body));
    }
    app.setErrorHandler((err: { code?: string }) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        throw new VigilError('invalid_sdp', `The body is not a usable SDP offer: it is over ${MAX_SDP_BYTES / 1024} KiB.`, { param: 'body' });
      }
      if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || err.code === 'FST_ERR_CTP_EMPTY_TYPE') {
        throw new VigilError(
          'unsupported_media_type',
          'Send the SDP offer as Content-Type: application/sdp (a trickle PATCH as application/trickle-ice-sdpfrag).',
          { param: 'Content-Type' },
        );
      }
      throw err;
    });
    const links = iceLinks(opts.iceServers);
    const { publish, trickle, end, forwarded } = whipHandlers(whip, links);

    app.post<{ Params: { id: string } }>(
      '/v1/streams/:id/whip',
      {
        schema: {
          ...WhipDoc,
          operationId: 'whipPublish',
          summary: 'Publish a webrtc stream over WHIP (SDP offer in, SDP answer out)',
          description:
            "The WHIP endpoint (RFC 9725) of a `webrtc` stream: POST the SDP offer with `Authorization: Bearer vpt_…` (the stream's publish token, not an API key) and `Content-Type: application/sdp`; 201 answers with the SDP answer and the session URL in `Location`. One publisher at a time: a second gets 409 (stream_already_publishing, naming the session and since when) while the first is live, unless it asks `?takeover=true`, which disconnects the first and takes its place. H.264 or VP8 video. Errors are problem+json.",
          params: WhipStreamParams,
          querystring: WhipPublishQuery,
          consumes: ['application/sdp'],
          body: SdpOffer,
          response: withErrors({ 201: SdpAnswer }),
        },
      },
      async (req, reply) => ((await forwarded(req, reply)) ? reply : publish(req, reply)),
    );
    app.patch<{ Params: { id: string; session: string } }>(
      '/v1/streams/:id/whip/:session',
      {
        schema: {
          ...WhipDoc,
          operationId: 'whipTrickle',
          summary: 'Send ICE candidates to a WHIP session (trickle ICE)',
          description:
            'Trickle ICE (RFC 8840) for the session a WHIP POST made: the publish token, `Content-Type: application/trickle-ice-sdpfrag` and `If-Match` with the session ETag.',
          params: WhipSessionParams,
          consumes: ['application/trickle-ice-sdpfrag'],
          body: TrickleFragment,
          response: withErrors({ 204: NoContent }),
        },
      },
      async (req, reply) => ((await forwarded(req, reply)) ? reply : trickle(req, reply)),
    );
    app.delete<{ Params: { id: string; session: string } }>(
      '/v1/streams/:id/whip/:session',
      {
        schema: {
          ...WhipDoc,
          operationId: 'whipEnd',
          summary: 'End a WHIP session',
          description: 'Ends the publishing session (the publish token authenticates); the stream goes offline until the next publisher.',
          params: WhipSessionParams,
          response: withErrors({ 200: SessionEnded }),
        },
      },
      async (req, reply) => ((await forwarded(req, reply)) ? reply : end(req, reply)),
    );

    registerPeerRoutes(app, whip, { publish, trickle, end });
  };

const PAGE_DIR = new URL('./publish-page/', import.meta.url);
/** Served from memory: three small files read once. */
const PAGE = {
  html: readFileSync(new URL('publish.html', PAGE_DIR), 'utf8'),
  js: readFileSync(new URL('publish.js', PAGE_DIR)),
  css: readFileSync(new URL('publish.css', PAGE_DIR)),
};

/** The page's only sources are these files and this origin; the URL carries a token, so no referrer and no caching. */
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; media-src 'self' blob: mediastream:; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The phone publish page: /console/publish?stream=…&token=… asks for the camera and publishes over WHIP. */
export const publishPageRoutes =
  (opts: { iceServers: readonly IceServer[] }): FastifyPluginAsyncTypebox =>
  async (app) => {
    const html = PAGE.html.replace('{{ICE_SERVERS}}', escapeAttr(JSON.stringify(opts.iceServers)));
    app.get('/console/publish', { schema: { hide: true } }, async (_req, reply) => reply.headers(PAGE_HEADERS).type('text/html; charset=utf-8').send(html));
    app.get('/console/publish.js', { schema: { hide: true } }, async (_req, reply) =>
      reply.headers(PAGE_HEADERS).type('text/javascript; charset=utf-8').send(PAGE.js),
    );
    app.get('/console/publish.css', { schema: { hide: true } }, async (_req, reply) =>
      reply.headers(PAGE_HEADERS).type('text/css; charset=utf-8').send(PAGE.css),
    );
  };
