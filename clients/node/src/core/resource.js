import { snakeizeKeys } from './casing.js';
import { PagePromise } from './pagination.js';

/** Whether a value can be sent as a raw-bytes body by fetch as it is. */
function isBytes(value) {
  return value instanceof Uint8Array || value instanceof ArrayBuffer || (typeof Blob !== 'undefined' && value instanceof Blob);
}

/**
 * Base of every generated resource class: turns (path arguments, camelCase params, options) into
 * one HTTP request described by the operation's descriptor. Params named like a query parameter go
 * to the query string; the rest form the JSON body. Operations whose body is a media type such as
 * image/jpeg take the bytes as `content` and send them untouched; those answering with bytes
 * resolve a Buffer.
 */
export class Resource {
  constructor(http) {
    this._http = http;
  }

  _buildRequest(operation, pathArgs, params, options = {}, content = undefined) {
    let path = operation.path;
    operation.pathParams.forEach((name, i) => {
      const value = pathArgs[i];
      if (typeof value !== 'string' || value === '') {
        throw new TypeError(`${operation.operationId}: the ${name} argument must be a non-empty string`);
      }
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    });
    const wire = snakeizeKeys(params ?? {});
    const query = {};
    const body = {};
    for (const [k, v] of Object.entries(wire)) {
      if (operation.query.includes(k) || !operation.body) query[k] = v;
      else body[k] = v;
    }
    const request = {
      method: operation.method,
      path,
      query,
      body: operation.body ? body : undefined,
      hasBody: operation.body,
      idempotencyKey: options.idempotencyKey,
      headers: options.headers,
      signal: options.signal,
    };
    if (operation.contentType) {
      if (!isBytes(content)) {
        throw new TypeError(`${operation.operationId}: the body must be the ${operation.contentType} bytes (a Buffer, Uint8Array, ArrayBuffer or Blob)`);
      }
      Object.assign(request, { content, contentType: operation.contentType });
    }
    if (operation.binaryResponse) {
      // problem+json still describes a failure
      Object.assign(request, { accept: `${operation.binaryResponse}, application/problem+json`, responseType: 'binary' });
    }
    return request;
  }

  _request(operation, pathArgs, params, options, content) {
    return this._http.request(this._buildRequest(operation, pathArgs, params, options, content));
  }

  _list(operation, pathArgs, params, options) {
    return new PagePromise((pageParams) => this._request(operation, pathArgs, pageParams, options), params);
  }
}
