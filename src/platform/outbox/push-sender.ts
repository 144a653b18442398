import { createHash, ECDH } from 'node:crypto';
import webpush from 'web-push';
import type { DatabaseHandle } from '../db/index.ts';
import type { NotificationMessage } from './channels.ts';
import { vapidRepository } from './vapid.repository.ts';

/**
 * Web Push (RFC 8030) with VAPID (RFC 8292) and aes128gcm payload encryption (RFC 8291), by the
 * `web-push` package (docs/decisions.md, "Notifications through the outbox").
 */

/** Largest plaintext that fits the 4096-byte record push services accept (RFC 8291 §4: 86-byte header, 16-byte tag, 1 padding delimiter). */
export const MAX_PUSH_PLAINTEXT = 4096 - 86 - 16 - 1;
const SECRET_NAME = 'vapid_keys';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The server's VAPID key pair: from the environment (a cluster sets the same pair on every node),
 * else made once on first start and kept with the server secrets, shared by every node.
 */
export async function loadVapidKeys(database: DatabaseHandle, configured: VapidKeys | null, now: string): Promise<VapidKeys> {
  if (configured) return configured;
  const made = webpush.generateVAPIDKeys();
  const value = await vapidRepository.sharedSecret(database.db, SECRET_NAME, JSON.stringify(made), now);
  return JSON.parse(value) as VapidKeys;
}

/** The payload a device receives: the message plus ids; trimmed to fit a push record, with the link kept. */
export function pushPayload(message: NotificationMessage, ids: { event_id: string; delivery_id: string }): string {
  const full = { ...message, ...ids, truncated: false };
  let text = JSON.stringify(full);
  if (Buffer.byteLength(text) <= MAX_PUSH_PLAINTEXT) return text;
  // too long: keep what identifies it and the link to the full event; shorten the words
  const lean = { ...full, truncated: true, location: message.location ?? null, room: message.room ?? null };
  const fits = (o: typeof lean) => Buffer.byteLength(JSON.stringify(o)) <= MAX_PUSH_PLAINTEXT;
  lean.title = clip(lean.title, 120);
  // the longest body (in characters) that fits, by bisection: JSON escaping and UTF-8 make bytes per character vary
  const chars = Array.from(message.body);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits({ ...lean, body: clip(message.body, mid) })) lo = mid;
    else hi = mid - 1;
  }
  lean.body = clip(message.body, lo);
  text = JSON.stringify(lean);
  return text;
}

function clip(s: string, chars: number): string {
  if (s.length <= chars) return s;
  return chars <= 1
    ? ''
    : `${Array.from(s)
        .slice(0, chars - 1)
        .join('')}…`;
}

/** RFC 8030 Topic: at most 32 base64url characters; a push service keeps only the newest undelivered message of a topic. */
export function topicOf(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}

export interface PushRequest {
  endpoint: string;
  headers: Record<string, string>;
  body: Buffer;
}

/** How long a VAPID token is made valid for (web-push's default, RFC 8292 §2: at most 24 h) */
const VAPID_TOKEN_SECONDS = 12 * 3600;
/** a cached token is used while it has at least this long left */
const VAPID_TOKEN_MIN_LEFT_SECONDS = 3600;
const vapidTokens = new Map<string, { authorization: string; exp: number }>();

/**
 * The VAPID `Authorization` for a push service (audience = its origin), signed once and reused
 * until an hour before it expires (RFC 8292 §2 lets a token be reused for its lifetime): signing an
 * ES256 JWT per push was the largest CPU cost of a fan-out (docs/decisions.md, "Fan-out on SQLite:
 * where the time went").
 */
export function vapidAuthorization(audience: string, subject: string, vapid: VapidKeys, nowSeconds = Math.floor(Date.now() / 1000)): string {
  const key = `${audience} ${subject} ${vapid.publicKey}`;
  const hit = vapidTokens.get(key);
  if (hit && hit.exp - nowSeconds >= VAPID_TOKEN_MIN_LEFT_SECONDS) return hit.authorization;
  const exp = nowSeconds + VAPID_TOKEN_SECONDS;
  const authorization = webpush.getVapidHeaders(audience, subject, vapid.publicKey, vapid.privateKey, 'aes128gcm', exp).Authorization;
  if (vapidTokens.size >= 1000) vapidTokens.clear();
  vapidTokens.set(key, { authorization, exp });
  return authorization;
}

/** Encrypts the payload for one subscription and signs the request with the VAPID key. */
export function buildPushRequest(
  sub: { endpoint: string; p256dh: string; auth: string },
  payload: string,
  opts: { vapid: VapidKeys; subject: string; ttlSeconds: number; urgency: 'normal' | 'high'; topic: string },
): PushRequest {
  const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
    // signed here (cached), not by web-push for every request
    vapidDetails: null as never,
    contentEncoding: 'aes128gcm',
    TTL: opts.ttlSeconds,
    urgency: opts.urgency,
    topic: opts.topic,
  });
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(details.headers)) headers[k] = String(v);
  headers.Authorization = vapidAuthorization(new URL(sub.endpoint).origin, opts.subject, opts.vapid);
  return { endpoint: details.endpoint, headers, body: details.body as Buffer };
}

/** Why a subscription's keys cannot be used, or null: p256dh a P-256 public point (65 bytes), auth 16 bytes. */
export function checkSubscriptionKeys(p256dh: string, auth: string): { param: string; message: string } | null {
  const b64url = /^[A-Za-z0-9_-]+={0,2}$/;
  if (!b64url.test(p256dh)) return { param: 'keys.p256dh', message: 'must be base64url' };
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4)
    return { param: 'keys.p256dh', message: `must be an uncompressed P-256 public key (65 bytes), got ${point.length} bytes` };
  try {
    ECDH.convertKey(point, 'prime256v1', undefined, undefined, 'compressed');
  } catch {
    return { param: 'keys.p256dh', message: 'is not a point on P-256' };
  }
  if (!b64url.test(auth)) return { param: 'keys.auth', message: 'must be base64url' };
  const secret = Buffer.from(auth, 'base64url');
  if (secret.length !== 16) return { param: 'keys.auth', message: `must be a 16-byte authentication secret, got ${secret.length} bytes` };
  return null;
}
