/**
 * The error catalogue (docs/design.md "Errors"). Every non-2xx answer is application/problem+json
 * with a `code` from this table; docs/errors.md documents each and a test keeps the three in step
 * (this table, docs/errors.md and the OpenAPI enum). Domain code throws VigilError with a code and
 * never picks HTTP statuses itself; the HTTP layer maps code → status here.
 */
export const ERROR_CATALOGUE = {
  invalid_json: { status: 400, title: 'Malformed JSON body' },
  validation_failed: { status: 400, title: 'Request failed validation' },
  unknown_field: { status: 400, title: 'Unknown field in request' },
  stream_not_in_scene: { status: 400, title: 'Stream is not part of this scene' },
  unsupported_source: { status: 400, title: 'Source URL not supported' },
  webhook_url_not_allowed: { status: 400, title: 'Webhook URL not allowed' }, // webhooks
  unknown_protocol_type: { status: 400, title: 'Protocol type not known' }, // operations
  invalid_image: { status: 400, title: 'Frame is not a valid JPEG image' },
  invalid_url: { status: 400, title: 'Malformed URL' }, // http hardening
  malformed_request: { status: 400, title: 'Malformed HTTP request' }, // http hardening
  invalid_sdp: { status: 400, title: 'SDP offer is malformed' }, // WebRTC ingest
  missing_api_key: { status: 401, title: 'No API key' },
  invalid_api_key: { status: 401, title: 'API key not recognised' },
  api_key_revoked: { status: 401, title: 'API key revoked' },
  console_session_expired: { status: 401, title: 'Console session expired or signed out' }, // web console
  invalid_publish_token: { status: 401, title: 'Publish token not recognised' }, // WebRTC ingest
  invalid_metrics_token: { status: 401, title: 'Metrics token not recognised' }, // GET /metrics with VIGIL_METRICS_TOKEN
  publish_token_revoked: { status: 401, title: 'Publish token revoked' }, // WebRTC ingest
  wrong_surface: { status: 403, title: 'Key belongs to the other surface' },
  insufficient_capability: { status: 403, title: 'Key lacks a capability' },
  location_not_allowed: { status: 403, title: 'Key is not allowed at this location' },
  owner_role_required: { status: 403, title: 'Only an owner key of the household may do this' }, // keys
  key_scope_exceeded: { status: 403, title: 'A key cannot grant more than it holds' }, // keys
  csrf_check_failed: { status: 403, title: 'Console request failed the cross-site check' }, // web console
  not_found: { status: 404, title: 'Resource not found' },
  route_not_found: { status: 404, title: 'No such route' },
  stream_has_no_video: { status: 404, title: 'Stream has no video' }, // recordings: sandbox streams (docs/decisions.md, "Recordings")
  no_recording: { status: 404, title: 'Nothing was recorded in this range' }, // recordings: nearest_before / nearest_after say what exists
  not_acceptable: { status: 406, title: 'Response media type not acceptable' }, // organization live feed
  request_timeout: { status: 408, title: 'Request not received in time' }, // http hardening
  stream_not_sandbox: { status: 409, title: 'Stream is not a sandbox stream' },
  idempotency_key_reused: { status: 409, title: 'Idempotency-Key reused with a different request' },
  idempotency_request_in_progress: { status: 409, title: 'A request with this Idempotency-Key is in progress' },
  webhook_endpoint_disabled: { status: 409, title: 'Webhook endpoint is disabled' }, // webhooks
  invalid_state_transition: { status: 409, title: 'State transition not allowed' }, // operations
  protocol_run_terminated: { status: 409, title: 'Protocol run is terminated' }, // operations
  protocol_type_exists: { status: 409, title: 'Protocol type already exists' }, // operations
  boundary_in_effect: { status: 409, title: 'Sensor is muted or left alone' }, // household
  stream_not_mobile: { status: 409, title: 'Stream does not take pushed frames' }, // real video
  sensor_muted: { status: 409, title: 'Sensor is muted' }, // privacy
  sensor_left_alone: { status: 409, title: 'Sensor is in a place left alone' }, // privacy
  stream_not_webrtc: { status: 409, title: 'Stream does not take WebRTC publishers' }, // WebRTC ingest
  stream_already_publishing: { status: 409, title: 'Stream already has a publisher' }, // WebRTC ingest
  etag_mismatch: { status: 412, title: 'If-Match does not match the session' }, // WebRTC ingest
  payload_too_large: { status: 413, title: 'Request body too large' },
  image_too_large: { status: 413, title: 'Image has too many pixels' }, // decompression bombs (see docs/decisions.md, "Bodies")
  path_parameter_too_long: { status: 414, title: 'Path parameter too long' }, // http hardening
  unsupported_media_type: { status: 415, title: 'Unsupported Content-Type' },
  range_not_satisfiable: { status: 416, title: 'Range outside the file' }, // clips served with Range (docs/decisions.md, "Recordings")
  query_not_understood: { status: 422, title: 'Query not understood' },
  face_not_seen: { status: 422, title: 'Nobody can say who it was' }, // "who was that at 22:40?" with no face seen
  no_video_in_offer: { status: 422, title: 'SDP offer has no video' }, // WebRTC ingest
  unsupported_codec: { status: 422, title: 'No video codec Vigil decodes' }, // WebRTC ingest
  ice_restart_not_supported: { status: 422, title: 'ICE restart not supported' }, // WebRTC ingest
  no_face: { status: 422, title: 'No face in the image' }, // face enrolment
  several_faces: { status: 422, title: 'Several faces in the image' }, // face enrolment
  face_too_small: { status: 422, title: 'Face too small to enrol' }, // face enrolment
  precondition_required: { status: 428, title: 'If-Match required' }, // WebRTC ingest
  rate_limit_exceeded: { status: 429, title: 'Rate limit exceeded' },
  too_many_connections: { status: 429, title: 'Too many connections from this address' }, // http hardening
  concurrent_stream_limit_exceeded: { status: 429, title: 'Too many concurrent streams' },
  request_header_too_large: { status: 431, title: 'Request line or headers too large' }, // http hardening
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export interface FieldError {
  param: string;
  message: string;
}

export class VigilError extends Error {
  readonly code: ErrorCode;
  readonly param?: string;
  readonly errors?: FieldError[];
  /** extra members merged into the problem body (e.g. examples for query_not_understood) */
  readonly extra?: Record<string, unknown>;
  /** response headers to add (e.g. Retry-After) */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    detail: string,
    opts: { param?: string; errors?: FieldError[]; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'VigilError';
    this.code = code;
    this.param = opts.param;
    this.errors = opts.errors;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }
}

export function notFound(what: string, id: string, param?: string): VigilError {
  return new VigilError('not_found', `No ${what} with id ${JSON.stringify(id)}.`, { param });
}

export function invalid(param: string, message: string): VigilError {
  return new VigilError('validation_failed', `${param}: ${message}`, { param, errors: [{ param, message }] });
}
