import { type Actor, type Principal } from '../../platform/identity/index.ts';
import type { DatabaseHandle, DbExecutor } from '../../platform/db/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { VigilError, notFound, newId } from '../../platform/lib/index.ts';
import { findStreamById, type StreamRow, type StreamService, type PublishInfo } from '../streams/index.ts';
import { resolveFfmpegPath } from '../../ingest/video/index.ts';
import type { IceServer } from '../../platform/config/index.ts';
import type { PeerLink, PeerNode, PeerRequest } from '../../platform/coordination/index.ts';
import { generatePublishToken, hashPublishToken, previewPublishToken, publishTokenMatches, publishTokenRepository } from './publish-token.ts';
import { checkWhipOffer, parseTrickleFragment } from './sdp-offer.ts';
import type { WebRtcIngestHandle } from './webrtc-ingest.ts';
import { WhipSession, type WhipSessionStats } from './whip-session.ts';

/** URLs of a stream's WHIP endpoint and publish page under the server's public address. */
export function publishUrls(publicBaseUrl: string, streamId: string, token: string): { whip_url: string; publish_url: string } {
  const base = publicBaseUrl.replace(/\/+$/, '');
  return {
    whip_url: `${base}/v1/streams/${streamId}/whip`,
    publish_url: `${base}/console/publish?${new URLSearchParams({ stream: streamId, token })}`,
  };
}

/**
 * Issues the publish token of a webrtc stream inside the transaction that creates it, and drops
 * it with the stream (the StreamService's `publishing` dependency).
 */
export class PublishTokens {
  constructor(private readonly deps: { clock: Clock; publicBaseUrl: string }) {}

  /** A new token for the stream (replacing any earlier one); the plain token exists only in the answer. */
  async issueIn(trx: DbExecutor, row: Pick<StreamRow, 'id' | 'tenant_id'>): Promise<PublishInfo> {
    const token = generatePublishToken();
    const createdAt = toIso(this.deps.clock.now());
    await publishTokenRepository.put(trx, {
      stream_id: row.id,
      tenant_id: row.tenant_id,
      token_hash: hashPublishToken(token),
      token_preview: previewPublishToken(token),
      created_at: createdAt,
      revoked_at: null,
    });
    return {
      object: 'publish_token',
      stream_id: row.id,
      token,
      token_preview: previewPublishToken(token),
      ...publishUrls(this.deps.publicBaseUrl, row.id, token),
      created_at: createdAt,
    };
  }

  async removeIn(trx: DbExecutor, streamId: string): Promise<void> {
    await publishTokenRepository.delete(trx, streamId);
  }
}

/** Where the WHIP service finds a running webrtc stream's ingest (the SourceManager). */
export interface WebRtcIngestLookup {
  webrtcIngest(streamId: string): WebRtcIngestHandle | null;
}

export interface WhipServiceDeps {
  database: DatabaseHandle;
  clock: Clock;
  audit: AuditService;
  streams: StreamService;
  tokens: PublishTokens;
  sources: WebRtcIngestLookup;
  iceServers: readonly IceServer[];
  /** decode rate and size, as for cameras */
  detectFps?: number;
  detectWidth?: number;
  /** session health timers (tests shorten them) */
  session?: { connectTimeoutMs?: number; mediaTimeoutMs?: number; disconnectedGraceMs?: number };
  log?: { warn(obj: unknown, msg?: string): void };
  /** cluster mode: the stream's owner and signed requests to it; null on a single node */
  peers?: PeerLink | null;
}

interface ActiveSession {
  id: string;
  streamId: string;
  /** when the publisher's POST was taken (epoch ms) */
  startedAt: number;
  /** null while the offer is being negotiated (the stream's slot is taken already) */
  session: WhipSession | null;
  remoteUfrag: string | null;
  /** removes the ingest's stop hook of this session */
  unhook: () => void;
}

export interface WhipAnswer {
  sessionId: string;
  location: string;
  etag: string;
  answer: string;
}

/**
 * WHIP (RFC 9725) for webrtc streams: a publisher authenticated by the stream's
 * publish token POSTs an SDP offer and gets an answer and a session URL; its video runs through
 * the stream's ingest until it DELETEs the session, vanishes, or its token is revoked. One
 * publisher per stream: a second is refused with 409 while the first is live.
 */
export class WhipService {
  private readonly active = new Map<string, ActiveSession>();
  private ffmpegPath: string | null = null;

  constructor(private readonly deps: WhipServiceDeps) {}

  /** Starts a publish; every check runs before any WebRTC state exists, so a refusal leaves nothing behind. */
  async publish(streamId: string, authorization: string | undefined, offer: string, opts: { takeover?: boolean } = {}): Promise<WhipAnswer> {
    const stream = await this.authenticate(streamId, authorization);
    checkWhipOffer(offer);
    const ingest = this.deps.sources.webrtcIngest(stream.id);
    if (!ingest && this.deps.peers) {
      throw new VigilError(
        'service_unavailable',
        `No node runs stream ${stream.id} at this moment (it is being taken over by another node); publish again in a few seconds.`,
        {
          headers: { 'Retry-After': '2' },
        },
      );
    }
    if (!ingest)
      throw new VigilError('service_unavailable', 'This server does not run video ingest (VIGIL_RUN_SOURCES=0), so it cannot take a WHIP publisher.');
    const current = this.active.get(stream.id);
    if (current && !opts.takeover) {
      throw new VigilError(
        'stream_already_publishing',
        `Stream ${stream.id} already has a live publisher (session ${current.id}, since ${toIso(current.startedAt)}). Publish with ?takeover=true to end it and take its place, end it with DELETE on its session URL, or revoke the publish token to cut it off.`,
        {
          extra: { session_id: current.id, since: toIso(current.startedAt) },
        },
      );
    }
    // the holder of the publish token takes the stream over: the earlier publisher is disconnected
    // (docs/decisions.md, "Reopening the publish page")
    if (current) await this.drop(current);
    const ffmpegPath = this.resolveFfmpeg();
    const id = newId('whip');
    const slot: ActiveSession = {
      id,
      streamId: stream.id,
      startedAt: this.deps.clock.now(),
      session: null,
      remoteUfrag: /^a=ice-ufrag:(\S+)/m.exec(offer)?.[1] ?? null,
      unhook: () => undefined,
    };
    this.active.set(stream.id, slot);
    let opened: { session: WhipSession; answer: string };
    try {
      opened = await WhipSession.open({
        id,
        offer,
        iceServers: this.deps.iceServers.map((s) => ({ ...s })),
        ffmpegPath,
        detectFps: this.deps.detectFps,
        detectWidth: this.deps.detectWidth,
        ...this.deps.session,
        sink: ingest,
        onEnded: (reason) => this.ended(slot, ingest, reason),
      });
    } catch (err) {
      this.active.delete(stream.id);
      throw new VigilError('invalid_sdp', `The SDP offer could not be negotiated: ${(err as Error).message}.`, { param: 'body' });
    }
    if (this.active.get(stream.id) !== slot) {
      // the token was revoked, the stream deleted or the connection lost while the offer was negotiated
      await opened.session.close();
      await this.authenticate(streamId, authorization);
      throw new VigilError('invalid_sdp', "The publisher's connection ended while the session was being set up; publish again.", { param: 'body' });
    }
    slot.session = opened.session;
    // the ingest stopping (stream deleted, restarted) disconnects its publisher
    slot.unhook = ingest.onStop(() => this.drop(slot));
    return { sessionId: id, location: `/v1/streams/${stream.id}/whip/${id}`, etag: opened.session.etag, answer: opened.answer };
  }

  /** Trickle ICE (RFC 9725 §4.3): the publisher's late candidates; an ICE restart is refused. */
  async trickle(streamId: string, sessionId: string, authorization: string | undefined, ifMatch: string | undefined, fragment: string): Promise<void> {
    await this.authenticate(streamId, authorization);
    const slot = this.find(streamId, sessionId);
    if (ifMatch === undefined) {
      throw new VigilError('precondition_required', 'Send If-Match with the session\'s ETag (or "*") when patching a WHIP session.', { param: 'If-Match' });
    }
    if (ifMatch.trim() !== '*' && ifMatch.trim() !== slot.session?.etag) {
      throw new VigilError('etag_mismatch', `If-Match ${ifMatch} does not match the session's ETag ${slot.session?.etag}.`, { param: 'If-Match' });
    }
    const frag = parseTrickleFragment(fragment);
    if (frag.ufrag && slot.remoteUfrag && frag.ufrag !== slot.remoteUfrag) {
      throw new VigilError('ice_restart_not_supported', 'This WHIP server does not do ICE restarts: DELETE the session and publish again.', { param: 'body' });
    }
    await slot.session?.addCandidates(frag.candidates);
  }

  /** DELETE of the session URL: the publisher is done; the stream goes offline. */
  async end(streamId: string, sessionId: string, authorization: string | undefined): Promise<void> {
    await this.authenticate(streamId, authorization);
    const slot = this.find(streamId, sessionId);
    await this.drop(slot);
    this.deps.sources.webrtcIngest(streamId)?.publisherLeft('the publisher ended the session');
  }

  /** A new token for a webrtc stream (API key); the old one stops working and its publisher is cut off. */
  async rotateToken(principal: Principal, actor: Actor, streamId: string): Promise<PublishInfo> {
    const row = this.publishable(await this.deps.streams.load(principal, streamId));
    const info = await this.deps.database.withWriteLock(async (trx) => {
      const out = await this.deps.tokens.issueIn(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: row.tenant_id,
          action: 'stream.publish_token_rotated',
          resourceType: 'stream',
          resourceId: row.id,
          data: { token_preview: out.token_preview },
        },
      ]);
      return out;
    });
    await this.cutOff(row.id, 'the publish token was rotated');
    return info;
  }

  /** Revokes the stream's token; a live publisher is disconnected at once. */
  async revokeToken(
    principal: Principal,
    actor: Actor,
    streamId: string,
  ): Promise<{ object: 'publish_token'; stream_id: string; revoked: true; ended_session: boolean }> {
    const row = this.publishable(await this.deps.streams.load(principal, streamId));
    await this.deps.database.withWriteLock(async (trx) => {
      const existing = await publishTokenRepository.find(trx, row.id);
      if (!existing || existing.revoked_at) return;
      await publishTokenRepository.revoke(trx, row.id, toIso(this.deps.clock.now()));
      await this.deps.audit.appendIn(trx, actor, [
        {
          tenantId: row.tenant_id,
          action: 'stream.publish_token_revoked',
          resourceType: 'stream',
          resourceId: row.id,
          data: { token_preview: existing.token_preview },
        },
      ]);
    });
    const ended = await this.cutOff(row.id, 'the publish token was revoked');
    return { object: 'publish_token', stream_id: row.id, revoked: true, ended_session: ended };
  }

  /**
   * Cluster mode: the node to forward a WHIP request to, when another node runs the stream (its
   * ingest, where the media must arrive, is there); null when this node handles it.
   */
  async ownerElsewhere(streamId: string): Promise<PeerNode | null> {
    const peers = this.deps.peers;
    if (!peers || this.deps.sources.webrtcIngest(streamId)) return null;
    const owner = await peers.ownerOf(streamId);
    return owner && owner.nodeId !== peers.nodeId ? owner : null;
  }

  forward(owner: PeerNode, req: PeerRequest): Promise<Response> {
    if (!this.deps.peers) throw new Error('forward() outside cluster mode');
    return this.deps.peers.send(owner, req);
  }

  /** A request on an /internal/ WHIP route must be signed by a node of the cluster (401 otherwise). */
  verifyPeer(req: Parameters<PeerLink['verify']>[0]): void {
    if (!this.deps.peers) throw new VigilError('route_not_found', 'Internal routes exist only in cluster mode.');
    this.deps.peers.verify(req);
  }

  /** Figures of a stream's live session (bench and logs), else null. */
  sessionStats(streamId: string): WhipSessionStats | null {
    return this.active.get(streamId)?.session?.stats() ?? null;
  }

  /** Ends every session (server shutdown). */
  async close(): Promise<void> {
    await Promise.allSettled([...this.active.values()].map((s) => this.drop(s)));
  }

  private async cutOff(streamId: string, reason: string): Promise<boolean> {
    // cluster mode: the live publisher is on the stream's owner, which may be another node
    const owner = await this.ownerElsewhere(streamId);
    if (owner) {
      const res = await this.forward(owner, {
        method: 'DELETE',
        path: `/internal/v1/streams/${encodeURIComponent(streamId)}/publisher?reason=${encodeURIComponent(reason)}`,
      });
      const body = (await res.json().catch(() => null)) as { ended_session?: boolean } | null;
      if (!res.ok) this.deps.log?.warn({ stream_id: streamId, node_id: owner.nodeId, status: res.status }, "the stream's owner did not cut its publisher off");
      return body?.ended_session === true;
    }
    return this.cutOffHere(streamId, reason);
  }

  /** Disconnects the stream's live publisher on this node (the owner), if there is one. */
  async cutOffHere(streamId: string, reason: string): Promise<boolean> {
    const slot = this.active.get(streamId);
    if (!slot) return false;
    await this.drop(slot);
    this.deps.sources.webrtcIngest(streamId)?.publisherLeft(reason);
    return true;
  }

  private publishable(row: StreamRow): StreamRow {
    if (row.source_type !== 'webrtc' || row.sandbox === 1) {
      const why = row.source_type !== 'webrtc' ? `its source_type is ${row.source_type}` : 'it is a sandbox stream, which simulates its source';
      throw new VigilError(
        'stream_not_webrtc',
        `Stream ${row.id} does not take WebRTC publishers: ${why}. Create a stream with source_type "webrtc" on a live key.`,
      );
    }
    return row;
  }

  /**
   * The publish token of this stream, from `Authorization: Bearer vpt_…`. A wrong token and an
   * unknown stream get the same answer, so a token holder learns nothing about other streams.
   */
  private async authenticate(streamId: string, authorization: string | undefined): Promise<StreamRow> {
    if (authorization === undefined) {
      throw new VigilError('invalid_publish_token', 'Send Authorization: Bearer <publish token> (the vpt_… token shown when the webrtc stream was created).', {
        param: 'Authorization',
      });
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const token = m?.[1] ?? '';
    if (token.startsWith('vk_')) {
      throw new VigilError('invalid_publish_token', "WHIP takes the stream's publish token (vpt_…), never an API key: an API key must not be put on a phone.", {
        param: 'Authorization',
      });
    }
    const row = await findStreamById(this.deps.database.db, streamId);
    const stored = row ? await publishTokenRepository.find(this.deps.database.db, streamId) : undefined;
    if (!row || !stored || !token || !publishTokenMatches(token, stored.token_hash)) {
      throw new VigilError('invalid_publish_token', 'The publish token is not the one of this stream.', { param: 'Authorization' });
    }
    if (stored.revoked_at) {
      throw new VigilError(
        'publish_token_revoked',
        `This publish token was revoked at ${stored.revoked_at}; ask for a new one (POST /v1/streams/${streamId}/publish-token).`,
        { param: 'Authorization' },
      );
    }
    return this.publishable(row);
  }

  private find(streamId: string, sessionId: string): ActiveSession {
    const slot = this.active.get(streamId);
    if (!slot || slot.id !== sessionId || !slot.session) throw notFound('WHIP session', sessionId);
    return slot;
  }

  private async drop(slot: ActiveSession): Promise<void> {
    if (this.active.get(slot.streamId) === slot) this.active.delete(slot.streamId);
    slot.unhook();
    await slot.session?.close();
  }

  private ended(slot: ActiveSession, ingest: WebRtcIngestHandle, reason: string): void {
    if (this.active.get(slot.streamId) !== slot) return;
    this.active.delete(slot.streamId);
    slot.unhook();
    ingest.publisherLeft(reason);
  }

  private resolveFfmpeg(): string {
    if (this.ffmpegPath) return this.ffmpegPath;
    try {
      this.ffmpegPath = resolveFfmpegPath();
      return this.ffmpegPath;
    } catch (err) {
      throw new VigilError('service_unavailable', (err as Error).message);
    }
  }
}
