import type { HttpClient } from './http-client.js';

export interface RequestOptions {
  /** sent as Idempotency-Key; POSTs get a random one when omitted, reused across retries */
  idempotencyKey?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface OperationDescriptor {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: string[];
  query: string[];
  body: boolean;
  /** media type of a raw-bytes request body (the method takes the bytes as an argument) */
  contentType?: string;
  /** media type of a raw-bytes success response (the method resolves a Buffer) */
  binaryResponse?: string;
}

export declare class Resource {
  constructor(http: HttpClient);
  protected _http: HttpClient;
}
