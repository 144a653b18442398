import { Resource } from './core/resource.js';

/** Where delivery ids already received are kept: a DeliveryIdCache, any {has, add} store, or a function returning true for a seen id (and recording it). */
export type SeenDeliveries = { has(deliveryId: string): boolean; add(deliveryId: string): unknown } | ((deliveryId: string) => boolean);

export interface VerifyWebhookOptions {
  /** the X-Service-Timestamp header (unix seconds or ISO 8601); checked against toleranceS when given */
  timestamp?: string | number | Date | null;
  /** allowed distance of the body's sent_at (and of `timestamp`) from now, seconds (default 300); null turns the age check off */
  toleranceS?: number | null;
  /** "now" in epoch ms (default Date.now()) */
  now?: number;
  /** refuse a delivery_id already received (code delivery_replayed) */
  seen?: SeenDeliveries | null;
}

/** Remembers delivery ids for ttlS seconds (default 600) in this process. */
export declare class DeliveryIdCache {
  constructor(options?: { ttlS?: number; now?: () => number });
  has(deliveryId: string): boolean;
  add(deliveryId: string): this;
}

export interface VerifiedWebhookEvent<D = Record<string, unknown>> {
  /** the event kind, e.g. "detection.anomaly" */
  type: string | null;
  /** for detection.anomaly the detection (type, subtype, confidence, location, timestamp…); otherwise the whole payload */
  data: D;
  /** evt_… */
  id: string | null;
  createdAt: string | null;
  /** dlv_…: the same for every attempt and redelivery of one delivery */
  deliveryId: string | null;
  /** when this attempt was sent (inside the signed body) */
  sentAt: string | null;
  /** the whole delivery body, camelCase */
  payload: Record<string, unknown>;
}

export declare function deriveHouseholdWebhookSecret(apiKey: string): string;
/** @throws SignatureVerificationError (code: secret_missing | raw_body_required | signature_header_missing | signature_header_malformed | signature_mismatch | timestamp_malformed | timestamp_outside_tolerance | payload_not_json | sent_at_missing | delivery_id_missing | delivery_replayed) */
export declare function verifyWebhook(
  rawBody: string | Uint8Array | ArrayBuffer,
  signatureHeader: string | string[] | null | undefined,
  secret: string,
  options?: VerifyWebhookOptions,
): VerifiedWebhookEvent;

export declare class WebhooksBase extends Resource {
  /** Verifies a delivery's X-Service-Signature over the raw body; see verifyWebhook. */
  verify(
    rawBody: string | Uint8Array | ArrayBuffer,
    signatureHeader: string | string[] | null | undefined,
    secret: string,
    options?: VerifyWebhookOptions,
  ): VerifiedWebhookEvent;
}
