import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DatabaseHandle } from '../db/index.ts';
import { VigilError } from '../lib/index.ts';
import { leaseRepository } from './lease.repository.ts';

/** A node that runs a stream now, and where the other nodes reach it. */
export interface PeerNode {
  nodeId: string;
  url: string;
}

/** What a forwarded request carries besides its own method, path and body. */
export interface PeerRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  /** path and query on the peer, e.g. /internal/v1/streams/stream_…/frames */
  path: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  timeoutMs?: number;
}

/** Headers of a request one node sends another (docs/deployment.md, "Forwarding to a stream's owner"). */
export const PEER_HEADERS = { node: 'x-vigil-node', time: 'x-vigil-node-time', signature: 'x-vigil-node-signature' } as const;

/** A signed request is accepted this long after (and before) the time it carries: the nodes' clocks are kept in step by NTP. */
const MAX_SKEW_MS = 30_000;
const SECRET_NAME = 'cluster_peer_key';

/**
 * Node-to-node requests in cluster mode (docs/decisions.md, "Cluster: the owner takes the
 * frames, shared cooldowns and anomalies"): a phone frame or a WHIP request reaches whichever node
 * the balancer picks; that node finds the stream's owner (its unexpired lease and the address the
 * owner heartbeats, VIGIL_INTERNAL_URL) and forwards the request to the owner's /internal/ route,
 * signed with HMAC-SHA256 over the sender, the time, the method, the path and the body's SHA-256.
 * The key is VIGIL_CLUSTER_SECRET, or one generated once and kept in the database (server_secrets).
 */
export class PeerLink {
  private key: Buffer | null = null;

  constructor(private readonly deps: { database: DatabaseHandle; nodeId: string; secret: string | null; now?: () => number }) {}

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Reads (or makes, once for the whole cluster) the signing key. */
  async start(): Promise<void> {
    if (this.deps.secret) {
      this.key = Buffer.from(this.deps.secret, 'utf8');
      return;
    }
    const made = randomBytes(32).toString('base64url');
    const value = await leaseRepository.sharedSecret(this.deps.database.db, SECRET_NAME, made, new Date(this.now()).toISOString());
    this.key = Buffer.from(value, 'utf8');
  }

  get nodeId(): string {
    return this.deps.nodeId;
  }

  /** The node that holds the stream's unexpired lease and says where it is reached; null when none does. */
  async ownerOf(streamId: string): Promise<PeerNode | null> {
    const row = await leaseRepository.ownerAddress(this.deps.database.db, streamId, this.now());
    return row?.internal_url ? { nodeId: row.node_id, url: row.internal_url } : null;
  }

  /** Sends a signed request to a peer; answers its response as is (errors are the peer's problem+json). */
  async send(peer: PeerNode, req: PeerRequest): Promise<Response> {
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body;
    const time = String(this.now());
    const headers: Record<string, string> = {
      ...req.headers,
      [PEER_HEADERS.node]: this.deps.nodeId,
      [PEER_HEADERS.time]: time,
      [PEER_HEADERS.signature]: this.sign(this.deps.nodeId, time, req.method, req.path, body),
    };
    try {
      return await fetch(`${peer.url}${req.path}`, {
        method: req.method,
        headers,
        body: body === undefined ? undefined : new Blob([new Uint8Array(body)]),
        signal: AbortSignal.timeout(req.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new VigilError('service_unavailable', `The node running this stream (${peer.nodeId}) did not answer (${(err as Error).message}); try again.`, {
        headers: { 'Retry-After': '2' },
      });
    }
  }

  /**
   * Checks that a request on an /internal/ route was signed by a node of this cluster; throws
   * invalid_api_key (401) otherwise. `path` is the request URL as received (path and query).
   */
  verify(req: { method: string; url: string; headers: Record<string, string | string[] | undefined>; body?: Buffer | string }): string {
    const one = (name: string) => {
      const v = req.headers[name];
      return typeof v === 'string' ? v : undefined;
    };
    const node = one(PEER_HEADERS.node);
    const time = one(PEER_HEADERS.time);
    const signature = one(PEER_HEADERS.signature);
    const refuse = (why: string) =>
      new VigilError('invalid_api_key', `Internal routes take only requests signed by a node of this cluster: ${why}.`, { param: 'Authorization' });
    if (!this.key) throw refuse('this node has no cluster key (not in cluster mode)');
    if (!node || !time || !signature) throw refuse(`${PEER_HEADERS.signature} is missing`);
    if (!/^\d{1,16}$/.test(time) || Math.abs(this.now() - Number(time)) > MAX_SKEW_MS) throw refuse('the signature is too old or from the future');
    const body = req.body === undefined ? undefined : typeof req.body === 'string' ? Buffer.from(req.body, 'utf8') : req.body;
    const expected = Buffer.from(this.sign(node, time, req.method, req.url, body), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refuse('the signature does not match');
    return node;
  }

  private sign(node: string, time: string, method: string, path: string, body: Buffer | undefined): string {
    if (!this.key) throw new Error('PeerLink.start() was not awaited');
    const digest = createHash('sha256')
      .update(body ?? Buffer.alloc(0))
      .digest('hex');
    return createHmac('sha256', this.key).update(`${node}\n${time}\n${method.toUpperCase()}\n${path}\n${digest}`).digest('base64url');
  }
}
