// The console talks to the public /v1 API only, with the session cookie. The generated
// Node client needs node:crypto and an API key, neither of which a page with an HttpOnly session
// has, so this is a thin fetch wrapper with the same conventions (problem+json errors).

let operator = null;
let onSignedOut = () => {};

export function setOperator(name) {
  operator = name || null;
}

/** Called when the session is gone (expired, signed out elsewhere, its key revoked). */
export function onSessionLost(fn) {
  onSignedOut = fn;
}

export class ApiError extends Error {
  constructor(problem, status) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.problem = problem;
    this.status = status;
    this.code = problem && problem.code;
  }
}

function headersFor(method, hasBody, idempotencyKey) {
  const h = { accept: 'application/json' };
  if (idempotencyKey) h['idempotency-key'] = idempotencyKey;
  // the CSRF header every state-changing request with the cookie must carry (docs/decisions.md)
  if (method !== 'GET') h['x-vigil-console'] = '1';
  if (operator) h['x-operator'] = operator;
  if (hasBody) h['content-type'] = 'application/json';
  return h;
}

async function parse(res) {
  const type = res.headers.get('content-type') || '';
  if (res.status === 204) return null;
  return type.includes('json') ? res.json() : res.text();
}

export async function api(method, path, body, { idempotencyKey } = {}) {
  const res = await fetch(path, {
    method,
    headers: headersFor(method, body !== undefined, idempotencyKey),
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const data = await parse(res);
  if (!res.ok) {
    if (res.status === 401) onSignedOut(data);
    throw new ApiError(data, res.status);
  }
  return data;
}

export const get = (path) => api('GET', path);
/** `opts.idempotencyKey`: the same key on every attempt of one submission (ui.js, useSubmit) */
export const post = (path, body = {}, opts = {}) => api('POST', path, body, opts);
export const patch = (path, body) => api('PATCH', path, body);
export const del = (path) => api('DELETE', path);

/** Exchanges a pasted API key for the session cookie; the key is not kept anywhere. */
export async function signIn(apiKey, operatorName) {
  const res = await fetch('/v1/console/sessions', {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey.trim()}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(operatorName ? { operator: operatorName } : {}),
    credentials: 'same-origin',
  });
  const data = await parse(res);
  if (!res.ok) throw new ApiError(data, res.status);
  return data;
}

/**
 * The current session, or null when there is none. The page says whether its cookie held a live
 * session when it was served (console-static.ts): with none, nothing is asked that would be refused.
 */
export function sessionOnLoad() {
  const meta = document.querySelector('meta[name="vigil-session"]');
  return meta ? meta.content : 'active';
}

export async function currentSession() {
  const res = await fetch('/v1/console/session', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  if (res.status === 401) return null;
  const data = await parse(res);
  if (!res.ok) throw new ApiError(data, res.status);
  return data;
}

export async function signOut() {
  await api('DELETE', '/v1/console/session');
}

/**
 * GET /v1/events/stream: the organization's live events (EventSource sends the cookie, same origin).
 * `connection(up)` follows the connection to the server: false when it drops (the browser retries).
 */
export function openFeed(handlers, connection = () => {}) {
  const es = new EventSource('/v1/events/stream');
  for (const [kind, fn] of Object.entries(handlers)) {
    es.addEventListener(kind, (ev) => fn(JSON.parse(ev.data)));
  }
  es.addEventListener('error', () => connection(false));
  return () => es.close();
}

/** Reads server-sent events from a fetch response body, frame by frame. */
async function readEvents(res, onFrame) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = 'message';
      const data = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) {
        onFrame(event, JSON.parse(data.join('\n')));
        // yield a task so the page paints each frame as it came (frames arriving in one chunk are not merged into one render)
        await new Promise((r) => setTimeout(r, 0));
      }
    }
  }
}

/** POST /v1/conversations streamed: the reply token by token and each action as it is taken. */
export async function converseStreaming(message, conversationId, onFrame) {
  const body = conversationId ? { message, conversation_id: conversationId } : { message };
  const res = await fetch('/v1/conversations', {
    method: 'POST',
    headers: { ...headersFor('POST', true), accept: 'text/event-stream' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!res.ok) {
    const data = await parse(res);
    if (res.status === 401) onSignedOut(data);
    throw new ApiError(data, res.status);
  }
  await readEvents(res, onFrame);
}
