import { createHmac, timingSafeEqual } from 'node:crypto';
import { camelizeKeys } from './core/casing.js';
import { SignatureVerificationError } from './core/errors.js';
import { Resource } from './core/resource.js';

const SIGNATURE_HEX = /^[0-9a-fA-F]{64}$/;

/** Household webhooks are "signed with the key" (DESIGN.md "Webhooks"): secret = hex HMAC-SHA256(apiKey, "vigil-webhook-v1"). */
export function deriveHouseholdWebhookSecret(apiKey) {
  if (typeof apiKey !== 'string' || apiKey === '') throw new TypeError('householdWebhookSecret needs the household API key');
  return createHmac('sha256', apiKey).update('vigil-webhook-v1').digest('hex');
}

function fail(code, message) {
  return new SignatureVerificationError(message, { code });
}

function rawBytesOf(rawBody) {
  if (typeof rawBody === 'string') return Buffer.from(rawBody, 'utf8');
  if (rawBody instanceof Uint8Array) return Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  if (rawBody instanceof ArrayBuffer) return Buffer.from(rawBody);
  throw fail(
    'raw_body_required',
    'Pass the raw request body (string, Buffer or Uint8Array) exactly as received; a parsed object cannot be verified.',
  );
}

/** Epoch milliseconds of an X-Service-Timestamp value: unix seconds, unix milliseconds, or ISO 8601. */
function timestampMs(value) {
  if (value instanceof Date) return value.getTime();
  const s = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(s)) {
    const n = Number(s);
    return n > 1e12 ? n : n * 1000;
  }
  const parsed = Date.parse(s);
  return Number.isNaN(parsed) ? NaN : parsed;
}

/**
 * Remembers delivery ids for `ttlS` seconds (default 600, twice the default tolerance): pass it as
 * `seen` so a delivery replayed within the tolerance window is refused. Older ids can be forgotten
 * because their sent_at is refused anyway. In memory, one process: a receiver running several
 * processes passes a store shared between them (an object with has/add, or a function).
 */
export class DeliveryIdCache {
  constructor({ ttlS = 600, now = () => Date.now() } = {}) {
    this.ttlMs = ttlS * 1000;
    this.now = now;
    this.seenAt = new Map();
  }

  has(deliveryId) {
    this.prune();
    return this.seenAt.has(deliveryId);
  }

  add(deliveryId) {
    this.seenAt.set(deliveryId, this.now());
    return this;
  }

  prune() {
    const oldest = this.now() - this.ttlMs;
    // a Map iterates in insertion order, so the oldest come first
    for (const [id, at] of this.seenAt) {
      if (at >= oldest) break;
      this.seenAt.delete(id);
    }
  }
}

/** Refuses a body sent too long ago, or a delivery already seen (DESIGN.md "Webhooks": replay protection). */
function checkReplay(payload, options) {
  const now = options.now ?? Date.now();
  const toleranceS = options.toleranceS === undefined ? 300 : options.toleranceS;
  if (toleranceS !== null) {
    if (typeof payload.sent_at !== 'string') {
      throw fail('sent_at_missing', 'The signed body has no sent_at, so its age cannot be checked (not sent by this service, or by a version without replay protection).');
    }
    const sentAt = Date.parse(payload.sent_at);
    if (Number.isNaN(sentAt)) throw fail('timestamp_malformed', 'The body\'s sent_at is not an ISO 8601 time.');
    if (Math.abs(now - sentAt) > toleranceS * 1000) {
      throw fail('timestamp_outside_tolerance', `The delivery was sent more than ${toleranceS} s from now (a replay?).`);
    }
  }
  const seen = options.seen;
  if (seen === undefined || seen === null) return;
  const id = payload.delivery_id;
  if (typeof id !== 'string' || id === '') throw fail('delivery_id_missing', 'The signed body has no delivery_id, so a repeat cannot be recognised.');
  if (typeof seen === 'function') {
    if (seen(id)) throw fail('delivery_replayed', `Delivery ${id} was already received (a replay or a redelivery of a processed delivery).`);
    return;
  }
  if (seen.has(id)) throw fail('delivery_replayed', `Delivery ${id} was already received (a replay or a redelivery of a processed delivery).`);
  seen.add(id);
}

/**
 * Verifies `X-Service-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>` in constant time and
 * returns `{type, data, id, createdAt, deliveryId, sentAt, payload}`: type is the event kind, data
 * the detection for detection.anomaly (the spec's "detection content") and the whole payload for
 * other kinds. Several comma-separated `sha256=` values are accepted (secret rotation).
 * Replays: the signed body's `sent_at` must be within `toleranceS` (default 300 s; null turns the
 * check off) of now, and with `seen` (a DeliveryIdCache, any {has, add} store, or a function that
 * returns true for an id it has seen and records it) a `delivery_id` already received is refused.
 * With `timestamp` (the X-Service-Timestamp header) that header is checked against the same tolerance.
 * Every failure is a SignatureVerificationError with a `code`; nothing else is thrown.
 */
export function verifyWebhook(rawBody, signatureHeader, secret, options = {}) {
  if (typeof secret !== 'string' || secret === '') throw fail('secret_missing', 'A webhook secret is required to verify a delivery.');
  const bytes = rawBytesOf(rawBody);
  const header = Array.isArray(signatureHeader) ? signatureHeader.join(',') : signatureHeader;
  if (typeof header !== 'string' || header.trim() === '') {
    throw fail('signature_header_missing', 'The X-Service-Signature header is missing.');
  }
  const values = header.split(',').map((s) => s.trim()).filter((s) => s.startsWith('sha256='));
  if (values.length === 0) {
    throw fail('signature_header_malformed', 'X-Service-Signature has no "sha256=<hex>" value.');
  }
  const candidates = values.map((v) => v.slice('sha256='.length));
  if (!candidates.every((c) => SIGNATURE_HEX.test(c))) {
    throw fail('signature_header_malformed', 'X-Service-Signature is not "sha256=" followed by 64 hex digits.');
  }
  const expected = createHmac('sha256', secret).update(bytes).digest();
  let matched = false;
  for (const c of candidates) matched = timingSafeEqual(Buffer.from(c, 'hex'), expected) || matched;
  if (!matched) {
    throw fail('signature_mismatch', 'The signature does not match the body: wrong secret, or the body was changed (verify the raw bytes, before any JSON parsing).');
  }
  if (options.timestamp !== undefined && options.timestamp !== null) {
    const at = timestampMs(options.timestamp);
    if (Number.isNaN(at)) throw fail('timestamp_malformed', 'The delivery timestamp is not unix seconds or ISO 8601.');
    const toleranceS = options.toleranceS ?? 300;
    const now = options.now ?? Date.now();
    if (options.toleranceS !== null && Math.abs(now - at) > toleranceS * 1000) {
      throw fail('timestamp_outside_tolerance', `The delivery timestamp is more than ${toleranceS} s from now (a replay?).`);
    }
  }
  let payload;
  try {
    payload = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw fail('payload_not_json', 'The signed body is not JSON.');
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw fail('payload_not_json', 'The signed body is not a JSON object.');
  }
  checkReplay(payload, options);
  const type = payload.event ?? payload.type ?? null;
  const data = type === 'detection.anomaly' && payload.detection ? payload.detection : payload;
  return {
    type,
    id: payload.id ?? null,
    createdAt: payload.created_at ?? null,
    deliveryId: payload.delivery_id ?? null,
    sentAt: payload.sent_at ?? null,
    data: camelizeKeys(data),
    payload: camelizeKeys(payload),
  };
}

/** Hand-written half of `vigil.webhooks`: the generated class adds the webhook endpoints' methods. */
export class WebhooksBase extends Resource {
  verify(rawBody, signatureHeader, secret, options) {
    return verifyWebhook(rawBody, signatureHeader, secret, options);
  }
}
