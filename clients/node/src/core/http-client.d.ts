export declare const CLIENT_VERSION: string;

export interface HttpClientOptions {
  apiKey: string;
  baseUrl: string;
  maxRetries?: number;
  timeoutMs?: number;
  maxRetryAfterS?: number;
  fetch?: typeof fetch;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  hasBody?: boolean;
  /** a raw body sent as it is, with `contentType`, instead of JSON */
  content?: Uint8Array | ArrayBuffer | Blob;
  contentType?: string;
  /** 'binary': a successful response resolves its bytes as a Buffer */
  responseType?: 'json' | 'binary';
  stream?: boolean;
  idempotencyKey?: string;
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
  accept?: string;
}

export declare class HttpClient {
  constructor(options: HttpClientOptions);
  readonly baseUrl: string;
  request(req: HttpRequest & { stream: true }): Promise<Response & { release(): void }>;
  request(req: HttpRequest & { responseType: 'binary' }): Promise<Buffer>;
  request<T = unknown>(req: HttpRequest): Promise<T>;
}
