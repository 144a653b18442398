import { HttpClient } from './core/http-client.js';
import { VigilError } from './core/errors.js';
import { RESOURCES } from './generated/resources.js';
import { deriveHouseholdWebhookSecret } from './webhooks.js';

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
} from './core/errors.js';
export { PagePromise } from './core/pagination.js';
export { verifyWebhook, DeliveryIdCache } from './webhooks.js';
export { CLIENT_VERSION } from './core/http-client.js';

function fromEnvironment(name) {
  return typeof process !== 'undefined' ? process.env?.[name] : undefined;
}

/**
 * The Vigil API client: `new Vigil({apiKey, baseUrl})`, then `vigil.<resource>.<method>(…)` — one
 * method per operation of openapi.json (generated into ./generated), camelCase in and out.
 */
export class Vigil {
  /** The secret household webhook deliveries are signed with: hex HMAC-SHA256(apiKey, "vigil-webhook-v1"). */
  static householdWebhookSecret(apiKey) {
    return deriveHouseholdWebhookSecret(apiKey);
  }

  constructor(options = {}) {
    const apiKey = options.apiKey ?? fromEnvironment('VIGIL_API_KEY');
    if (!apiKey) throw new VigilError('An API key is required: new Vigil({ apiKey }) or the VIGIL_API_KEY environment variable.');
    const baseUrl = options.baseUrl ?? fromEnvironment('VIGIL_BASE_URL') ?? 'http://localhost:8080';
    const http = new HttpClient({
      apiKey,
      baseUrl,
      maxRetries: options.maxRetries,
      timeoutMs: options.timeoutMs,
      maxRetryAfterS: options.maxRetryAfterS,
      fetch: options.fetch,
    });
    Object.defineProperty(this, '_http', { value: http, enumerable: false });
    for (const [name, ResourceClass] of Object.entries(RESOURCES)) this[name] = new ResourceClass(http);
  }

  get baseUrl() {
    return this._http.baseUrl;
  }
}

export default Vigil;
