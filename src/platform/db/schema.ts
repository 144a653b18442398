import type { Generated } from 'kysely';

/**
 * Row types of every table. Conventions that hold on both SQLite and PostgreSQL:
 * timestamps are ISO 8601 text (sortable), detection/audit instants also as epoch-ms bigint,
 * booleans are 0/1 integers, JSON is text.
 */
export interface TenantTable {
  id: string; // org_… | hh_…
  kind: 'organization' | 'household';
  name: string;
  settings: string; // JSON
  created_at: string;
}

export interface ApiKeyTable {
  id: string; // key_…
  tenant_id: string;
  tenant_kind: 'organization' | 'household';
  mode: 'live' | 'test';
  key_hash: string; // sha256 hex
  preview: string; // vk_test_abcd…wxyz
  capabilities: string; // JSON string[]
  locations: string | null; // JSON string[] | null = all
  rate_limit_per_minute: number | null;
  created_at: string;
  revoked_at: string | null;
  /** household keys: owner lifts boundaries and manages keys, member only adds */
  role: 'owner' | 'member';
  /** a label from account settings, never secret */
  name: string | null;
}

export interface StreamTable {
  id: string;
  tenant_id: string;
  name: string;
  source_type: string;
  source_url: string;
  location: string;
  scene_id: string;
  status: string;
  sandbox: number;
  config: string; // JSON: zones, masks, detect fps…
  error: string | null;
  last_frame_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SceneTable {
  id: string;
  tenant_id: string;
  location: string;
  capacity: number;
  time_zone: string;
  people: number;
  vehicles: number;
  crowd_density: number;
  active_anomalies: number;
  last_detection_at: string | null;
  created_at: string;
  updated_at: string;
  /** how the scene's streams combine into its counts: 'max' (overlapping views) or 'sum' (disjoint areas); migration 019 */
  stream_combine?: string;
}

export interface DetectionTable {
  id: string;
  tenant_id: string;
  stream_id: string;
  scene_id: string;
  location: string;
  type: string;
  subtype: string | null;
  value: number | null;
  count: number | null;
  confidence: number;
  at: number; // epoch ms
  track_id: string | null;
  dwell_s: number | null;
  zone: string | null;
  /** 012: JSON [x, y, w, h] in 0..1 of the frame (real video); null for sandbox and sensor detections */
  box: string | null;
  /** 016: person: the enrolled person the face matched (subtype 'recognized'); null otherwise
   * (optional for writers that have no recognition: absent is stored as null) */
  person_id?: string | null;
}

export interface AuditTable {
  seq: Generated<number>;
  id: string;
  tenant_id: string;
  at: string;
  actor_key_id: string | null;
  actor_operator: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  request_id: string | null;
  data: string | null; // JSON (before/after, details)
  prev_hash: string;
  hash: string;
  /** 006: null = format 1 (hash over data), 2 = hash over data_hash */
  format: number | null;
  /** 006: hex SHA-256 of JSON [salt, location, stream_id, data] (format 2) */
  data_hash: string | null;
  salt: string | null;
  /** 006: the place the entry is about (reads confine and redact by it) */
  location: string | null;
  stream_id: string | null;
}

export interface AuditCheckpointTable {
  id: string; // ackp_…
  tenant_id: string;
  head_seq: number;
  head_id: string;
  head_hash: string;
  entry_count: number;
  created_at: string;
  mac: string;
}

export interface ServerSecretTable {
  name: string;
  value: string;
  created_at: string;
}

export interface IdempotencyTable {
  key_id: string;
  idempotency_key: string;
  method: string;
  path: string;
  body_hash: string;
  status: number | null; // null while in progress
  response: string | null;
  created_at: string;
}

// --- webhooks & outbox (migration 002, src/platform/outbox/) ---
export interface WebhookEndpointTable {
  id: string; // whk_…
  tenant_id: string;
  tenant_kind: 'organization' | 'household';
  url: string;
  description: string | null;
  events: string; // JSON string[]
  enabled: number; // 0/1
  secret_source: 'generated' | 'api_key';
  secret: string; // HMAC key used to sign (whsec_… or the key-derived hex)
  previous_secret: string | null; // still signs alongside until previous_secret_expires_at
  previous_secret_expires_at: number | null; // epoch ms
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  locations: string | null; // JSON string[] | null = every location (organization endpoints)
}

export interface WebhookEventTable {
  id: string; // evt_…
  tenant_id: string;
  kind: string;
  body: string; // exact JSON bytes that are signed and sent
  created_at: string;
}

export interface WebhookDeliveryTable {
  id: string; // dlv_…
  tenant_id: string;
  endpoint_id: string | null;
  target_url: string | null;
  target_secret: string | null;
  event_id: string;
  event_kind: string;
  status: 'pending' | 'retrying' | 'delivered' | 'dropped' | 'cancelled';
  series: number;
  attempt_count: number;
  first_attempt_at: number | null; // epoch ms, start of the 24 h retry window
  next_attempt_at: number | null; // epoch ms
  lease_until: number | null; // epoch ms, set while a worker has it in flight
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  updated_at: string;
  /** webhook | push | email (migration 024) */
  channel: 'webhook' | 'push' | 'email';
  /** push: the subscription sent to, read when sending (migration 024) */
  subscription_id: string | null;
  /** push and email: the rendered notification, JSON (migration 024) */
  message: string | null;
}

export interface WebhookAttemptTable {
  seq: Generated<number>;
  delivery_id: string;
  series: number;
  attempt: number;
  started_at: string;
  url: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  outcome: 'delivered' | 'retrying' | 'dropped';
  next_attempt_at: string | null;
}
// --- end webhooks ---

// --- operations: alerts, incidents, responders, protocols (migration 003, src/org/alerts|incidents|responders|protocols/) ---
export interface AutomationSettingsTable {
  tenant_id: string;
  incidents_paused: number; // 0/1: automatic incident creation paused by an operator
  escalation_paused: number; // 0/1: automatic protocol escalation paused by an operator
  incident_gap_s: number;
  escalation_after_s: number;
  business_hours: string; // JSON Schedule
  updated_at: string;
  face_recognition: number; // 0/1 (migration 013): phone frames are searched for enrolled faces
}

export interface AlertRuleTable {
  id: string; // rule_…
  tenant_id: string;
  name: string;
  condition: string; // JSON RuleCondition
  min_confidence: number;
  locations: string | null; // JSON string[]
  stream_ids: string | null; // JSON string[]
  schedule: string | null; // JSON Schedule
  cooldown_s: number;
  status: 'active' | 'paused';
  created_at: string;
  updated_at: string;
}

export interface AlertTable {
  id: string; // alert_…
  tenant_id: string;
  rule_id: string;
  rule_name: string;
  status: 'open' | 'acknowledged';
  stream_id: string;
  scene_id: string;
  location: string;
  incident_id: string | null;
  condition: string; // JSON
  observed: number | null;
  detection: string; // JSON snapshot
  detected_at: number; // epoch ms
  fired_at: string;
  acknowledged_at: string | null;
  acknowledged_by_key_id: string | null;
  acknowledged_by_operator: string | null;
}

export interface IncidentTable {
  id: string; // incident_…
  tenant_id: string;
  stream_id: string;
  scene_id: string;
  location: string;
  title: string;
  severity: 'low' | 'medium' | 'high' | 'critical';
  status: 'open' | 'acknowledged' | 'resolved' | 'dismissed';
  source: 'manual' | 'automatic';
  last_activity_at: number; // epoch ms: grouping of anomalies into one incident
  acknowledged_at: string | null;
  closed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface IncidentDetectionTable {
  incident_id: string;
  detection_id: string;
  tenant_id: string;
  track_id: string | null;
  at: number; // epoch ms
  detection: string; // JSON snapshot
}

export interface IncidentNoteTable {
  id: string; // note_…
  incident_id: string;
  tenant_id: string;
  body: string;
  author_key_id: string | null;
  author_operator: string | null;
  created_at: string;
}

export interface ResponderTable {
  id: string; // rsp_…
  tenant_id: string;
  name: string;
  kind: 'person' | 'system';
  escalation_level: number;
  webhook_url: string;
  email: string | null;
  sms: string | null;
  signing_secret: string; // whsec_…: signs deliveries to webhook_url
  created_at: string;
  updated_at: string;
}

export interface ProtocolTypeTable {
  id: string; // ptype_…
  tenant_id: string;
  name: string;
  description: string | null;
  steps: string; // JSON string[]
  created_at: string;
}

export interface ProtocolRunTable {
  id: string; // prot_…
  tenant_id: string;
  incident_id: string;
  protocol_type: string;
  steps: string; // JSON string[]
  status: 'active' | 'paused' | 'completed' | 'dismissed' | 'terminated';
  escalation_level: number;
  notify_responders: number; // 0/1
  responders_notified: number;
  /** responders whose every channel failed (migration 024) */
  responders_unreached: number;
  acknowledged_at: string | null;
  next_escalation_at: number | null; // epoch ms
  created_by_key_id: string | null;
  created_by_operator: string | null;
  created_at: string;
  updated_at: string;
  ended_at: string | null;
}

export interface ProtocolNotificationTable {
  run_id: string;
  responder_id: string;
  tenant_id: string;
  escalation_level: number;
  delivery_event_id: string | null;
  notified_at: string;
}
// --- end operations ---

// ---- 004 household agent ----
export interface HouseholdRoomTable {
  id: string; // room_…
  tenant_id: string;
  name: string; // as people say it: "front porch"
  location: string; // snake_case location of the room's streams and scene: "front_porch"
  created_at: string;
  updated_at: string;
}

export interface HouseholdSensorTable {
  stream_id: string; // the sensor is this stream
  tenant_id: string;
  room_id: string;
  kind: 'camera' | 'contact' | 'motion';
  muted: number; // 0/1
  muted_at: string | null;
  created_at: string;
}

export interface HouseholdBoundaryTable {
  id: string; // bnd_…
  tenant_id: string;
  room_id: string | null;
  sensor_id: string | null;
  set_at: string;
  set_by_key_id: string | null;
  cleared_at: string | null;
  cleared_by_key_id: string | null;
}

export interface WatchTable {
  id: string; // wat_…
  tenant_id: string;
  subject: string;
  sensor_ids: string; // JSON string[]
  starts_at: string;
  ends_at: string;
  recurrence: 'none' | 'daily' | 'weekdays' | 'weekends';
  window_text: string;
  conditions: string | null; // JSON string[] | null = every condition
  /** 016: JSON person ids: only these known people, recognized by face; null = anyone (optional for writers before it) */
  person_ids?: string | null;
  status: 'active' | 'stood_down';
  conversation_id: string | null;
  created_by_key_id: string | null;
  created_at: string;
  updated_at: string;
  stood_down_at: string | null;
}

export interface HouseholdEventTable {
  id: string; // evt_…
  tenant_id: string;
  kind: string;
  type: string;
  watch_id: string | null;
  sensor_id: string | null;
  room: string | null;
  summary: string;
  detection: string | null; // JSON
  data: string | null; // JSON
  occurred_at: string;
  created_at: string;
  /** observations and alerts: what one visit shares (kind, type, sensor, person); null for changes (migration 025) */
  visit_key: string | null;
  /** observations this event stands for, in its visit (migration 025) */
  visit_count: number;
  /** the visit's last observation; occurred_at is its first (migration 025) */
  last_seen_at: string | null;
  /** epoch ms (detection time) of the last webhook event about this one, and the count it carried (migration 025) */
  pushed_at: number | null;
  pushed_count: number;
}

/** An update of a household event's visit, sent as its own outbox event (migration 025). */
export interface HouseholdEventUpdateTable {
  id: string; // evt_… of the update's outbox event
  tenant_id: string;
  event_id: string; // the household event updated
  created_at: string;
}

export interface ConversationTable {
  id: string; // conv_…
  tenant_id: string;
  created_by_key_id: string | null;
  title: string;
  turn_count: number;
  created_at: string;
  updated_at: string;
}

export interface ConversationTurnTable {
  id: string; // msg_…
  conversation_id: string;
  tenant_id: string;
  seq: number;
  key_id: string | null;
  message: string;
  reply: string;
  actions: string; // JSON AgentAction[]
  planner: string;
  status: 'in_progress' | 'completed' | 'interrupted';
  created_at: string;
  completed_at: string | null;
  /** 008: JSON stream ids whose content the reply showed; null before 008 */
  revealed_sensor_ids: string | null;
}

// ---- 005 real video ----
/** One frame's JPEG, shared by the detections that frame produced. */
export interface SnapshotTable {
  id: string; // snap_…
  tenant_id: string;
  stream_id: string;
  at: number; // epoch ms of the frame
  jpeg: Buffer;
}

export interface DetectionSnapshotTable {
  detection_id: string; // det_…
  snapshot_id: string;
  tenant_id: string;
  at: number; // epoch ms, as the detection
}

/** WebRTC ingest: a webrtc stream's WHIP publish token, hashed. */
export interface StreamPublishTokenTable {
  stream_id: string;
  tenant_id: string;
  token_hash: string; // SHA-256 hex
  token_preview: string; // vpt_abcd…wxyz, for display
  created_at: string;
  revoked_at: string | null;
}

/** Web console sessions: a cookie token exchanged for an API key, hashed. */
export interface ConsoleSessionTable {
  id: string; // csn_…
  token_hash: string; // SHA-256 hex of the cookie token
  key_id: string;
  tenant_id: string;
  operator: string | null; // the name signed in with; sent as X-Operator by the console
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface Database {
  tenants: TenantTable;
  api_keys: ApiKeyTable;
  streams: StreamTable;
  scenes: SceneTable;
  detections: DetectionTable;
  audit_log: AuditTable;
  idempotency_keys: IdempotencyTable;
  webhook_endpoints: WebhookEndpointTable; // 002
  webhook_events: WebhookEventTable; // 002
  webhook_deliveries: WebhookDeliveryTable; // 002
  webhook_attempts: WebhookAttemptTable; // 002
  automation_settings: AutomationSettingsTable; // 003
  alert_rules: AlertRuleTable; // 003
  alerts: AlertTable; // 003
  incidents: IncidentTable; // 003
  incident_detections: IncidentDetectionTable; // 003
  incident_notes: IncidentNoteTable; // 003
  responders: ResponderTable; // 003
  protocol_types: ProtocolTypeTable; // 003
  protocol_runs: ProtocolRunTable; // 003
  protocol_notifications: ProtocolNotificationTable; // 003
  household_rooms: HouseholdRoomTable; // 004
  household_sensors: HouseholdSensorTable; // 004
  household_boundaries: HouseholdBoundaryTable; // 004
  watches: WatchTable; // 004
  household_events: HouseholdEventTable; // 004
  household_event_updates: HouseholdEventUpdateTable; // 025
  conversations: ConversationTable; // 004
  conversation_turns: ConversationTurnTable; // 004
  snapshots: SnapshotTable; // 005
  detection_snapshots: DetectionSnapshotTable; // 005
  audit_checkpoints: AuditCheckpointTable; // 006
  server_secrets: ServerSecretTable; // 006
  stream_publish_tokens: StreamPublishTokenTable; // 010
  console_sessions: ConsoleSessionTable; // 011
  people: PersonTable; // 013
  person_faces: PersonFaceTable; // 013
  scheduled_jobs: ScheduledJobTable; // 015
  stream_leases: StreamLeaseTable; // 014
  cluster_nodes: ClusterNodeTable; // 014
  alert_cooldowns: AlertCooldownTable; // 021
  scene_anomalies: SceneAnomalyTable; // 021
  recording_segments: RecordingSegmentTable; // 023
  recording_holds: RecordingHoldTable; // 023
  notification_subscriptions: NotificationSubscriptionTable; // 024
  notification_preferences: NotificationPreferenceTable; // 024
  notification_throttle: NotificationThrottleTable; // 024
}

// --- recordings (migration 023, src/org/recordings/) ---
export interface RecordingSegmentTable {
  id: string; // rseg_…
  tenant_id: string;
  stream_id: string;
  kind: 'video' | 'still';
  start_at: number; // epoch ms
  end_at: number; // epoch ms
  /** relative to the recordings directory */
  path: string;
  sha256: string;
  bytes: number;
  /** 'h264' (MP4), 'vp8' (WebM) or 'jpeg' (a phone still) */
  codec: string;
  audit_id: string;
  created_at: string;
}

export interface RecordingHoldTable {
  incident_id: string;
  tenant_id: string;
  reason: string | null;
  set_at: string;
  released_at: string | null;
}

// --- notifications (migration 024, src/platform/notify/) ---
export interface NotificationSubscriptionTable {
  id: string; // nsub_…
  tenant_id: string;
  /** the key whose device or address this is (null: a responder's) */
  key_id: string | null;
  responder_id: string | null;
  channel: 'push' | 'email';
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  address: string | null;
  label: string | null;
  events: string; // JSON string[]
  created_at: string;
  revoked_at: string | null;
  revoked_reason: 'revoked' | 'gone' | null;
}

export interface NotificationPreferenceTable {
  tenant_id: string;
  key_id: string; // '*' = the whole tenant
  quiet_hours: string | null; // JSON {from: "HH:MM", to: "HH:MM"}
  exclude: string; // JSON {rooms: string[], sensors: string[], watches: string[]}
  updated_at: string;
  paused: number; // 026: 1 = nothing is sent until resumed
}

export interface NotificationThrottleTable {
  tenant_id: string;
  tag: string;
  visit_started_at: number;
  last_event_at: number;
  last_sent_at: number;
  count: number;
  severity: number;
}

// --- durable scheduled jobs (migration 015, src/platform/scheduler/) ---
export interface ScheduledJobTable {
  id: string; // sjob_…
  kind: string;
  job_key: string;
  tenant_id: string | null;
  payload: string | null; // JSON
  due_at: number; // epoch ms
  claimed_by: string | null; // node id
  claim_token: string | null;
  claimed_until: number | null; // epoch ms: the claim's lease
  attempts: number;
  last_error: string | null;
  done_at: number | null; // epoch ms (one-shot jobs)
  run_count: number;
  last_done_at: number | null;
  last_done_by: string | null;
  created_at: string;
}

// --- scale-out (migration 014, src/platform/coordination/) ---
/** Which node runs a stream; times are epoch ms. */
export interface StreamLeaseTable {
  stream_id: string;
  node_id: string;
  epoch: number; // fencing token: only grows
  expires_at: number; // 0 once released
  since: number; // when the current owner claimed it
}

/** A node's heartbeat; live workers share the streams by capacity. */
export interface ClusterNodeTable {
  node_id: string;
  role: string; // all | api | worker
  capacity: number; // detector threads
  started_at: number;
  heartbeat_at: number;
  internal_url: string | null; // 021: where the other nodes reach it (frames and WHIP forwarded to a stream's owner)
}

/** 021: the detection time a rule last fired per scene, shared by the nodes of a cluster. */
export interface AlertCooldownTable {
  rule_id: string;
  scene_id: string;
  last_at: number;
}

/** 021: a scene's held anomalies, from every node of a cluster (key: track or detection id). */
export interface SceneAnomalyTable {
  scene_id: string;
  anomaly_key: string;
  until_at: number;
}

// --- known people and their faces (migration 013, src/org/people/) ---
export interface PersonTable {
  id: string; // person_…
  tenant_id: string;
  name: string;
  note: string | null;
  created_at: string;
  updated_at: string;
}

export interface PersonFaceTable {
  id: string; // face_…
  tenant_id: string;
  person_id: string;
  model: string; // descriptor model tag (DESCRIPTOR_MODEL)
  descriptor: Buffer; // float32 little-endian
  crop: Buffer | null; // JPEG of the face, only when enrolled with keep_image=true
  size: number; // face side in px in the enrolment photo
  created_at: string;
}
