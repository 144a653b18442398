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

export interface Database {
  tenants: TenantTable;
  api_keys: ApiKeyTable;
  streams: StreamTable;
  scenes: SceneTable;
  detections: DetectionTable;
  audit_log: AuditTable;
  idempotency_keys: IdempotencyTable;
}
