import { createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook signing (docs/design.md "Webhooks"):
 * `X-Service-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>`. The HMAC key is the secret
 * string exactly as the client holds it (UTF-8 bytes of `whsec_…`, or of the 64 hex characters a
 * household derives from its API key).
 */
export const SIGNATURE_HEADER = 'X-Service-Signature';
/** During a secret rotation's 24 h overlap, the signature made with the previous secret. */
export const PREVIOUS_SIGNATURE_HEADER = 'X-Service-Signature-Previous';
export const TIMESTAMP_HEADER = 'X-Service-Timestamp';
export const DELIVERY_HEADER = 'X-Service-Delivery';
export const EVENT_HEADER = 'X-Service-Event';
export const USER_AGENT = 'Vigil-Webhooks/1';

/** Context string of the household derivation; the client libraries use the same constant. */
export const HOUSEHOLD_SECRET_CONTEXT = 'vigil-webhook-v1';

/** A new organization endpoint secret: `whsec_` + 32 random bytes, base64url. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Household endpoints are "signed with the key" (docs/design.md "Webhooks"): the secret is
 * HMAC-SHA256(api key, "vigil-webhook-v1") in hex, so the server keeps only the derived value and
 * the client derives the same one from the key it already has.
 */
export function deriveHouseholdSecret(apiKey: string): string {
  return createHmac('sha256', apiKey).update(HOUSEHOLD_SECRET_CONTEXT).digest('hex');
}

/** The header value for a raw body: `sha256=<hex>`. */
export function signWebhookBody(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * The bytes sent for one attempt (docs/design.md "Webhooks"): the event's stored JSON with
 * `delivery_id` and `sent_at` added inside the body, so the signature covers them and a receiver
 * can refuse an old body (sent_at outside its tolerance) or one it has already processed
 * (delivery_id seen). Every attempt — retries and redeliveries by hand too — keeps the delivery id
 * and gets its own sent_at (the attempt's start, equal to X-Service-Timestamp).
 */
export function deliveryBody(eventBody: string, deliveryId: string, sentAt: string): string {
  return JSON.stringify({ ...(JSON.parse(eventBody) as Record<string, unknown>), delivery_id: deliveryId, sent_at: sentAt });
}
