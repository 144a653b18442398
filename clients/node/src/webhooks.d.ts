import { Resource } from './core/resource.js';

export interface VerifyWebhookOptions {
  /** the X-Service-Timestamp header (unix seconds or ISO 8601); checked against toleranceS when given */
  timestamp?: string | number | Date | null;
  /** allowed distance of `timestamp` from now, seconds (default 300) */
  toleranceS?: number;
  /** "now" in epoch ms (default Date.now()) */
  now?: number;
}

export interface VerifiedWebhookEvent<D = Record<string, unknown>> {
  /** the event kind, e.g. "detection.anomaly" */
  type: string | null;
  /** for detection.anomaly the detection (type, subtype, confidence, location, timestamp…); otherwise the whole payload */
  data: D;
  /** evt_… */
  id: string | null;
  createdAt: string | null;
  /** the whole delivery body, camelCase */
  payload: Record<string, unknown>;
}

export declare function deriveHouseholdWebhookSecret(apiKey: string): string;
/** @throws SignatureVerificationError (code: secret_missing | raw_body_required | signature_header_missing | signature_header_malformed | signature_mismatch | timestamp_malformed | timestamp_outside_tolerance | payload_not_json) */
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
