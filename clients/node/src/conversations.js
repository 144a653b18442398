import { camelizeKeys } from './core/casing.js';
import { VigilError, createErrorFromProblem } from './core/errors.js';
import { Resource } from './core/resource.js';
import { parseEventStream } from './core/sse.js';

// Used until openapi.json describes the conversation endpoint (spec: POST /v1/conversations).
const FALLBACK_CREATE = { operationId: 'createConversation', method: 'POST', path: '/v1/conversations', pathParams: [], query: [], body: true };

/**
 * Hand-written half of `vigil.conversations`: `stream()` sends the same request as `create()` with
 * `Accept: text/event-stream` (spec "Streaming rule") and yields each frame as it arrives —
 * conversation.created, reply.delta (token by token), action (as each is taken),
 * conversation.completed (the full body). An `error` frame (a problem object) is thrown as a
 * VigilError, as an error response would be.
 */
export class ConversationsBase extends Resource {
  async *stream(params, options = {}) {
    const operation = this.constructor.operations?.create ?? FALLBACK_CREATE;
    const request = this._buildRequest(operation, [], params, options);
    const response = await this._http.request({ ...request, stream: true, accept: 'text/event-stream' });
    const requestId = response.headers.get('x-request-id') ?? undefined;
    try {
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) {
        // a server that answers with plain JSON: present it as the completed event so callers still get the reply
        const body = await response.json();
        yield { event: 'conversation.completed', id: undefined, data: camelizeKeys({ type: 'conversation.completed', conversation: body }) };
        return;
      }
      for await (const frame of parseEventStream(response.body)) {
        let data;
        try {
          data = JSON.parse(frame.data);
        } catch {
          throw new VigilError(`The ${frame.event} event's data is not JSON`, { requestId, rawBody: frame.data });
        }
        if (frame.event === 'error') throw createErrorFromProblem(data?.error ?? data ?? {}, { requestId }, camelizeKeys);
        yield { event: frame.event, id: frame.id, data: camelizeKeys(data) };
      }
    } finally {
      response.release();
    }
  }
}
