import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, ListOf, ListQuery, Location, Name, prefixedId, MAX_URL_CHARS, MAX_LABEL_CHARS, MAX_NAME_CHARS } from '../../platform/http/index.ts';
import { DROP_REASONS, SENSOR_DETECTION_TYPES, SENSOR_PRESET_NAMES } from '../../ingest/mqtt/index.ts';

/** A webrtc stream's publish credentials, shown once: at creation and at each rotation. */
export const PublishInfoSchema = Type.Object({
  object: Type.Literal('publish_token'),
  stream_id: Type.String(),
  token: Type.String({
    description: "vpt_… publish token for this stream's WHIP endpoint; shown only now, stored hashed. It is not an API key and can do nothing else.",
  }),
  token_preview: Type.String({ description: "the token's first and last characters, for telling tokens apart later" }),
  whip_url: Type.String({ description: 'WHIP endpoint (RFC 9725): POST an SDP offer with Authorization: Bearer <token>' }),
  publish_url: Type.String({ description: 'page that publishes the camera of the phone or browser that opens it (it carries the token: share it like one)' }),
  created_at: IsoTime,
});
export type PublishInfo = Static<typeof PublishInfoSchema>;

export const SOURCE_TYPES = ['rtsp', 'http', 'webrtc', 'mobile', 'sandbox', 'mqtt'] as const;
export const STREAM_STATUSES = ['connecting', 'live', 'reconnecting', 'offline'] as const;

export const StreamIdParams = Type.Object({ id: Type.String({ description: 'stream_…' }) });

/** Normalised image coordinates: x and y in 0..1 from the top-left corner of the camera view. */
const PolygonSchema = Type.Array(Type.Array(Type.Number({ minimum: 0, maximum: 1 }), { minItems: 2, maxItems: 2 }), {
  minItems: 3,
  maxItems: 64,
  description: 'closed polygon of [x, y] points, both in 0..1 from the top-left corner of the view',
  examples: [
    [
      [0, 0.6],
      [1, 0.6],
      [1, 1],
      [0, 1],
    ],
  ],
});
const ZonesSchema = Type.Array(
  Type.Object(
    {
      name: Name({ maxLength: MAX_LABEL_CHARS, examples: ['entrance'] }),
      polygon: PolygonSchema,
    },
    { additionalProperties: false },
  ),
  {
    maxItems: 32,
    description: 'named areas inside the view; a detection is placed in the first zone containing the bottom-centre of its box (where a person stands)',
  },
);
const MotionMasksSchema = Type.Array(PolygonSchema, {
  maxItems: 32,
  description: 'areas whose movement does not wake the detector (trees, screens, a busy road)',
});

/** How an mqtt stream's payload reads (docs/decisions.md, "Sensors over MQTT"). */
const SensorMappingSchema = Type.Object(
  {
    preset: Type.Optional(
      Type.String({
        description: `a Zigbee2MQTT device: ${SENSOR_PRESET_NAMES.join(', ')} (contact: \`contact: false\` is an open door; occupancy is motion; battery only reports the battery)`,
        examples: ['contact'],
      }),
    ),
    json_path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'anything else: the path of the state in the JSON payload, such as state.door or $.sensors[0].open; with type and active',
        examples: ['state.door'],
      }),
    ),
    type: Type.Optional(
      Type.String({
        description: `with json_path: what the active state is, one of ${SENSOR_DETECTION_TYPES.join(', ')} (door_open also records door_closed when it turns inactive)`,
        examples: ['door_open'],
      }),
    ),
    active: Type.Optional(
      Type.Union([Type.Boolean(), Type.Number({ minimum: -1e15, maximum: 1e15 }), Type.String({ maxLength: 100 })], {
        description: 'with json_path: the value that means active (default true); a value of another JSON type is dropped as wrong_type',
        examples: ['OPEN'],
      }),
    ),
    battery_path: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'where the battery percentage is (default battery, as Zigbee2MQTT publishes it)' }),
    ),
    battery_low_pct: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: 'at or below this battery percentage the stream is offline, saying so (default 10)' }),
    ),
    expected_interval_s: Type.Optional(
      Type.Integer({
        minimum: 10,
        maximum: 7 * 86_400,
        description: 'the stream is offline when the device sent nothing for this long (default 7200: Zigbee2MQTT devices check in at least hourly)',
      }),
    ),
  },
  { additionalProperties: false, description: "mqtt streams only: how the device's JSON payload becomes a state (a preset, or json_path + type + active)" },
);

/** What an mqtt stream's device said last and what was dropped (the server running it; null elsewhere). */
const SensorStateSchema = Type.Object({
  state: Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Null()], {
    description: "the device's last state (a contact: active = open); null before its first message or for a battery-only preset",
  }),
  state_at: Type.Union([IsoTime, Type.Null()], { description: 'when the device last changed to that state, as Vigil received it' }),
  battery: Type.Union([Type.Number(), Type.Null()], { description: 'the last battery percentage the device reported' }),
  last_message_at: Type.Union([IsoTime, Type.Null()]),
  messages: Type.Integer({ minimum: 0, description: 'messages received since the source started on this server' }),
  dropped: Type.Object(Object.fromEntries(DROP_REASONS.map((r) => [r, Type.Integer({ minimum: 0 })])), {
    description:
      'messages dropped since the source started, by reason: not_json (not a JSON object), missing_field (the mapped field is absent), wrong_type (the value is of another JSON type than the mapping expects), unknown_preset (a stored mapping this server does not know), too_large (over 64 KiB)',
  }),
});

const SOURCE_URL_DOC =
  'rtsp: rtsp:// or rtsps:// camera; http: MJPEG or HLS over http(s)://; mobile: any label such as mobile://front-desk-phone (the phone pushes frames); ' +
  "webrtc: any label for the publisher, such as webrtc://guard-phone (it publishes to the stream's WHIP URL, returned with its publish token when the stream is created); sandbox: sandbox://<name>?scenario=<scenario>&seed=<int>. " +
  'mqtt: mqtt://[user:password@]broker:1883/<device topic> or mqtts:// (one device, no + or # wildcards; a private or loopback broker only on servers started with VIGIL_MQTT_ALLOW_PRIVATE=1), with the payload mapping in sensor. ' +
  'file:// (rtsp and http) only on servers started with VIGIL_ALLOW_FILE_SOURCES=1.';

export const CreateStreamBody = Type.Object(
  {
    name: Name({ maxLength: MAX_NAME_CHARS, examples: ['North lobby camera'] }),
    source_type: Type.Union(
      SOURCE_TYPES.map((s) => Type.Literal(s)),
      {
        description:
          'rtsp camera, http (MJPEG/HLS) camera, webrtc (WHIP) publisher, mobile phone pushing frames, sandbox synthetic scene, or mqtt sensor (a door contact, motion, leak, smoke or vibration sensor on an MQTT broker)',
      },
    ),
    source_url: Name({
      maxLength: MAX_URL_CHARS,
      description: SOURCE_URL_DOC,
      examples: ['sandbox://lobby?scenario=lobby&seed=7'],
    }),
    location: Location,
    zones: Type.Optional(ZonesSchema),
    motion_masks: Type.Optional(MotionMasksSchema),
    sensor: Type.Optional(SensorMappingSchema),
  },
  { additionalProperties: false },
);
export type CreateStreamBodyT = Static<typeof CreateStreamBody>;

export const UpdateStreamBody = Type.Object(
  {
    name: Type.Optional(Name({ maxLength: MAX_NAME_CHARS })),
    source_url: Type.Optional(Name({ maxLength: MAX_URL_CHARS })),
    location: Type.Optional(Location),
    zones: Type.Optional(ZonesSchema),
    motion_masks: Type.Optional(MotionMasksSchema),
    sensor: Type.Optional(SensorMappingSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateStreamBodyT = Static<typeof UpdateStreamBody>;

export const StreamSchema = Type.Object(
  {
    id: prefixedId('stream'),
    object: Type.Literal('stream'),
    name: Type.String(),
    source_type: Type.String(),
    source_url: Type.String({ description: 'with any password masked' }),
    location: Type.String(),
    scene_id: prefixedId('scene'),
    status: Type.Union(STREAM_STATUSES.map((s) => Type.Literal(s))),
    sandbox: Type.Boolean({ description: 'true when the stream produces synthetic sandbox data' }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'why the source is not live (credentials removed), null while healthy' }),
    last_frame_at: Type.Union([IsoTime, Type.Null()]),
    fps_in: Type.Union([Type.Number(), Type.Null()], {
      description: 'frames decoded per second over the last seconds; null when no video ingest runs for the stream (sandbox, or a server not running sources)',
    }),
    detector_fps: Type.Union([Type.Number(), Type.Null()], {
      description:
        'frames per second that went through the object detector (the motion gate skips still frames); null when no video ingest runs (and for mqtt sensors)',
    }),
    zones: ZonesSchema,
    motion_masks: MotionMasksSchema,
    created_at: IsoTime,
    updated_at: IsoTime,
    assignment: Type.Union(
      [
        Type.Object(
          {
            node_id: Type.String({ description: 'the node running the stream (VIGIL_NODE_ID)' }),
            epoch: Type.Integer({ minimum: 1, description: 'fencing epoch of the lease: grows each time another node takes the stream over' }),
            since: IsoTime,
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'where the stream runs now: null when no node runs it (a cluster between owners, or a server not running sources)' },
    ),
    sensor: Type.Union(
      [
        Type.Composite([
          SensorMappingSchema,
          Type.Object({ live: Type.Union([SensorStateSchema, Type.Null()], { description: 'null when the source does not run on the server that answered' }) }),
        ]),
        Type.Null(),
      ],
      { description: 'mqtt streams: the payload mapping and what the device said last; null for video streams' },
    ),
    publish: Type.Optional({
      ...PublishInfoSchema,
      description: 'webrtc streams, in the creating answer only: the WHIP publish token (shown once), the WHIP URL and the phone publish page',
    }),
  },
  { $id: 'Stream' },
);
export type StreamView = Static<typeof StreamSchema>;

export const StreamList = ListOf(Type.Ref('Stream'));
export const StreamListQuery = Type.Composite([ListQuery, Type.Object({ location: Type.Optional(Location) })], { additionalProperties: false });

export const DeletedStream = Type.Object({
  id: Type.String(),
  object: Type.Literal('stream'),
  deleted: Type.Literal(true),
});

/** One face a phone frame showed, when the organization has face recognition on. */
export const FrameFaceSchema = Type.Object({
  status: Type.Union([Type.Literal('recognized'), Type.Literal('unrecognized')], {
    description: 'recognized: the face matched an enrolled person; unrecognized: a face was seen and matched nobody',
  }),
  person_id: Type.Union([prefixedId('person'), Type.Null()], { description: 'the enrolled person, when recognized' }),
  similarity: Type.Union([Type.Number({ minimum: -1, maximum: 1 }), Type.Null()], {
    description: 'cosine similarity to the most similar enrolled face (a match needs at least 0.75); null when nobody is enrolled',
  }),
  box: Type.Array(Type.Number({ minimum: 0, maximum: 1 }), {
    minItems: 4,
    maxItems: 4,
    description: 'the face in the frame, normalised: left, top, width, height',
  }),
});
export type FrameFace = Static<typeof FrameFaceSchema>;

export const FrameResult = Type.Object({
  object: Type.Literal('frame_result'),
  stream_id: Type.String(),
  status: Type.Union(
    STREAM_STATUSES.map((s) => Type.Literal(s)),
    { description: 'the phone stream after this frame (live)' },
  ),
  detected: Type.Boolean({ description: 'false when the frame was not run through the detector (no motion since the last frame)' }),
  detections: Type.Array(Type.Ref('Detection'), {
    description: 'what changed in the scene because of this frame; person and vehicle detections have a snapshot (GET /v1/detections/:id/snapshot)',
  }),
  faces: Type.Optional(
    Type.Array(FrameFaceSchema, {
      description:
        'only when the organization has face_recognition on (PATCH /v1/automation): each face at least 56 px across, largest first, recognized or not; faces smaller than that get no verdict. Absent when recognition is off.',
    }),
  ),
});
export type SensorLiveView = Static<typeof SensorStateSchema>;
