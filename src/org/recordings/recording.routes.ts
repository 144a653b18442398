import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors, type RouteApp } from '../../platform/http/index.ts';
import { VigilError } from '../../platform/lib/index.ts';
import type { Clip } from './clip-maker.ts';
import type { EvidenceBundles } from './evidence-bundle.ts';
import type { RecordingService } from './recording.service.ts';
import { DeletedRange, HoldBody, HoldView, IdParams, RangeQuery, RecordingList, Video, Zip } from './recording.schemas.ts';

const security = [{ bearerAuth: [] }];

/** One `bytes=` range of a file of `size` bytes, or null to send it whole (none, several, or unparseable). */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Math.min(Number(m[2]), size);
    return { start: size - n, end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start)
    throw new VigilError('range_not_satisfiable', `Range ${header} is outside the clip's ${size} bytes.`, {
      param: 'Range',
      headers: { 'content-range': `bytes */${size}` },
    });
  return { start, end };
}

/** A clip with Range support, so a browser can seek (docs/decisions.md, "Recordings"). */
function sendClip(req: FastifyRequest, reply: FastifyReply, clip: Clip) {
  const range = parseRange(req.headers.range, clip.bytes);
  reply.type(clip.contentType).header('accept-ranges', 'bytes').header('cache-control', 'private, max-age=300');
  if (!range) return reply.header('content-length', clip.bytes).send(createReadStream(clip.file));
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${clip.bytes}`)
    .header('content-length', range.end - range.start + 1)
    .send(createReadStream(clip.file, { start: range.start, end: range.end }));
}

/** GET /v1/streams/:id/clip, /v1/incidents/:id/clip and /v1/alerts/:id/clip. */
function registerClipRoutes(app: RouteApp, recordings: RecordingService): void {
  // the three clip routes: one shape (a video with Range support), three ways of choosing the range
  const clipRoute = <Q extends TSchema | undefined>(
    path: string,
    o: {
      capability: 'streams:read' | 'incidents:read' | 'alerts:read';
      operationId: string;
      summary: string;
      description: string;
      querystring?: Q;
      clip(req: FastifyRequest<{ Params: Static<typeof IdParams>; Querystring: Q extends TSchema ? Static<Q> : unknown }>): Promise<Clip>;
    },
  ) =>
    app.get(
      path,
      {
        config: { surface: 'organization', capability: o.capability },
        schema: {
          tags: ['Recordings'],
          security,
          operationId: o.operationId,
          summary: o.summary,
          description: o.description,
          params: IdParams,
          ...(o.querystring ? { querystring: o.querystring } : {}),
          response: withErrors({ 200: Video, 206: Video, 416: Type.Ref('Problem') }),
        },
      },
      async (req, reply) => sendClip(req, reply, await o.clip(req as never)),
    );

  clipRoute('/v1/streams/:id/clip', {
    capability: 'streams:read',
    operationId: 'getStreamClip',
    summary: 'A clip of any range of a stream',
    description:
      "An MP4 with its index first, made by copying the range's segments (no re-encoding; cut at keyframes); WebM for a VP8 WHIP publisher; phone stills become an H.264 MP4. Honours Range. 404 no_recording (with nearest_before, nearest_after) when nothing was recorded in the range.",
    querystring: RangeQuery,
    clip: (req) => recordings.clip(principalOf(req), req.params.id, req.query),
  });

  clipRoute('/v1/incidents/:id/clip', {
    capability: 'incidents:read',
    operationId: 'getIncidentClip',
    summary: 'The clip of an incident',
    description:
      "From the incident's start less the pre-roll (VIGIL_CLIP_PRE_ROLL_SECONDS, default 10) to its last activity plus the post-roll (VIGIL_CLIP_POST_ROLL_SECONDS, default 20), from its stream's recording. Honours Range.",
    clip: (req) => recordings.incidentClip(principalOf(req), req.params.id),
  });

  clipRoute('/v1/alerts/:id/clip', {
    capability: 'alerts:read',
    operationId: 'getAlertClip',
    summary: 'The clip around an alert',
    description: "From the alert's detection less the pre-roll to it plus the post-roll. Honours Range.",
    clip: (req) => recordings.alertClip(principalOf(req), req.params.id),
  });
}

/** GET and DELETE /v1/streams/:id/recordings: what was recorded of a range, and deleting it. */
function registerRangeRoutes(app: RouteApp, recordings: RecordingService): void {
  app.get(
    '/v1/streams/:id/recordings',
    {
      config: { surface: 'organization', capability: 'streams:read' },
      schema: {
        tags: ['Recordings'],
        security,
        operationId: 'listRecordings',
        summary: 'What was recorded of a stream in a range, with its gaps',
        description:
          'Closed segments (about 10 s of video each, or phone stills) overlapping [from, to), oldest first, with the parts of the range that have none. 400 when from is not before to or the range is longer than VIGIL_CLIP_MAX_SECONDS; 404 stream_has_no_video for sandbox streams.',
        params: IdParams,
        querystring: RangeQuery,
        response: withErrors({ 200: RecordingList }),
      },
    },
    async (req) => recordings.list(principalOf(req), req.params.id, req.query),
  );

  app.delete(
    '/v1/streams/:id/recordings',
    {
      config: { surface: 'organization', capability: 'streams:write' },
      schema: {
        tags: ['Recordings'],
        security,
        operationId: 'deleteRecordings',
        summary: "Delete a range of a stream's recording",
        description:
          'The segments overlapping [from, to), except those an open incident or a legal hold keeps (kept_held counts them). Recordings are not erased when a known person is deleted; this is how an operator removes a range. Audited (recording.range_deleted, with the segment ids).',
        params: IdParams,
        querystring: RangeQuery,
        response: withErrors({ 200: DeletedRange }),
      },
    },
    async (req) => recordings.deleteRange(principalOf(req), actorOf(req), req.params.id, req.query),
  );
}

/** An incident's evidence bundle, and setting and releasing its legal hold. */
function registerEvidenceAndHoldRoutes(app: RouteApp, recordings: RecordingService, evidence: EvidenceBundles): void {
  app.get(
    '/v1/incidents/:id/evidence',
    {
      config: { surface: 'organization', capability: 'incidents:read' },
      schema: {
        tags: ['Recordings'],
        security,
        operationId: 'getIncidentEvidence',
        summary: "The incident's evidence bundle",
        description:
          "One zip: the recorded segments of the incident's window and the clip copied from them, its snapshots, incident.json (the timeline), manifest.json (SHA-256 of every file), and audit/chain.ndjson with audit/checkpoint.json: the audit entries that sealed each segment and recorded this export, chained to a signed checkpoint. `npx vigil verify-evidence <file>` checks it offline. The export is audited (incident.evidence_exported).",
        params: IdParams,
        response: withErrors({ 200: Zip }),
      },
    },
    async (req, reply) => {
      const bundle = await evidence.build(principalOf(req), actorOf(req), req.params.id);
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="${bundle.name}"`)
        .header('x-manifest-sha256', bundle.manifestSha256)
        .header('cache-control', 'no-store')
        .send(bundle.zip);
    },
  );

  app.put(
    '/v1/incidents/:id/legal-hold',
    {
      config: { surface: 'organization', capability: 'incidents:write' },
      schema: {
        tags: ['Recordings'],
        security,
        operationId: 'setIncidentLegalHold',
        summary: "Keep an incident's recordings past retention",
        description: "Segments in the incident's clip window are kept until the hold is released, plus VIGIL_RECORDINGS_HOLD_DAYS. Audited.",
        params: IdParams,
        body: HoldBody,
        response: withErrors({ 200: HoldView }),
      },
    },
    async (req) => recordings.setHold(principalOf(req), actorOf(req), req.params.id, req.body ?? {}),
  );

  app.delete(
    '/v1/incidents/:id/legal-hold',
    {
      config: { surface: 'organization', capability: 'incidents:write' },
      schema: {
        tags: ['Recordings'],
        security,
        operationId: 'releaseIncidentLegalHold',
        summary: "Release an incident's legal hold",
        description: 'Its segments follow retention again after VIGIL_RECORDINGS_HOLD_DAYS. Audited.',
        params: IdParams,
        response: withErrors({ 200: HoldView }),
      },
    },
    async (req) => recordings.releaseHold(principalOf(req), actorOf(req), req.params.id),
  );
}

export const recordingRoutes =
  (recordings: RecordingService, evidence: EvidenceBundles): FastifyPluginAsyncTypebox =>
  async (app) => {
    registerRangeRoutes(app, recordings);
    registerClipRoutes(app, recordings);
    registerEvidenceAndHoldRoutes(app, recordings, evidence);
  };
