import type { VigilResources } from './generated/resources.js';

export {
  VigilError,
  InvalidRequestError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  APIError,
  APIConnectionError,
  SignatureVerificationError,
  type FieldError,
} from './core/errors.js';
export { PagePromise, type Page } from './core/pagination.js';
export type { RequestOptions } from './core/resource.js';
export type { Camelize, CamelCase } from './core/casing.js';
export { verifyWebhook, DeliveryIdCache, type SeenDeliveries, type VerifiedWebhookEvent, type VerifyWebhookOptions } from './webhooks.js';
export type { ConversationStreamEvent, ConversationStreamParams } from './conversations.js';
export type * from './generated/models.js';
export type { operations, components, paths } from './generated/schema.js';
export declare const CLIENT_VERSION: string;

export interface VigilOptions {
  /** vk_live_… / vk_test_…; defaults to the VIGIL_API_KEY environment variable */
  apiKey?: string;
  /** defaults to VIGIL_BASE_URL, then http://localhost:8080 */
  baseUrl?: string;
  /** retries after a 429, a network error or 502/503/504 (idempotent requests only for the last two); default 2 */
  maxRetries?: number;
  /** per-attempt timeout until the response arrives, ms; default 60000 */
  timeoutMs?: number;
  /** a Retry-After longer than this (seconds) is not waited for; the RateLimitError is thrown instead. Default 60 */
  maxRetryAfterS?: number;
  /** a fetch implementation (default: the global fetch) */
  fetch?: typeof fetch;
}

export interface Vigil extends VigilResources {}

export declare class Vigil {
  /** The secret household webhook deliveries are signed with: hex HMAC-SHA256(apiKey, "vigil-webhook-v1"). */
  static householdWebhookSecret(apiKey: string): string;
  constructor(options?: VigilOptions);
  readonly baseUrl: string;
}

export default Vigil;
