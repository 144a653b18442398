/**
 * How an MQTT device's payload becomes a state (docs/decisions.md, "Sensors over MQTT"): a
 * Zigbee2MQTT preset (the field its devices publish, and which value means "active"), or a
 * JSON path with the value that means active. A state change becomes a detection of the kind the
 * mapping names: a contact that opens is `door_open`, one that closes `door_closed`; occupancy is
 * `motion`; vibration, water_leak and smoke are their own kinds (platform/kinds).
 */
import type { DetectionInput } from '../../platform/kinds/index.ts';

/** The detection types a sensor mapping may produce when its state turns active. */
export const SENSOR_DETECTION_TYPES = ['door_open', 'motion', 'vibration', 'water_leak', 'smoke'] as const;
export type SensorDetectionType = (typeof SENSOR_DETECTION_TYPES)[number];

export interface PresetSpec {
  /** the field of the Zigbee2MQTT payload */
  path: string;
  /** the value that means active (a contact's `contact: false` is an open door) */
  active: boolean;
  /** what an active state is; null: the preset only reports battery */
  type: SensorDetectionType | null;
}

/** Zigbee2MQTT's exposes (https://www.zigbee2mqtt.io/guide/usage/exposes.html), by name. */
export const SENSOR_PRESETS: Readonly<Record<string, PresetSpec>> = {
  contact: { path: 'contact', active: false, type: 'door_open' },
  occupancy: { path: 'occupancy', active: true, type: 'motion' },
  vibration: { path: 'vibration', active: true, type: 'vibration' },
  water_leak: { path: 'water_leak', active: true, type: 'water_leak' },
  smoke: { path: 'smoke', active: true, type: 'smoke' },
  battery: { path: 'battery', active: true, type: null },
};
export const SENSOR_PRESET_NAMES = Object.keys(SENSOR_PRESETS);

/** A stream's mapping as stored in its config (the `sensor` field of the stream). */
export interface SensorMapping {
  /** a Zigbee2MQTT preset; or json_path + type (+ active) for anything else */
  preset?: string;
  /** dotted path into the JSON payload: `state.door`, `contact`, `$.sensors[0].open` */
  json_path?: string;
  /** with json_path: what the active state is */
  type?: string;
  /** with json_path: the value meaning active (true, "ON", 1, "open"); default true */
  active?: boolean | number | string;
  /** where the battery percentage is; Zigbee2MQTT's `battery` by default */
  battery_path?: string;
  /** at or below this percentage the stream is offline with "battery low" (default 10) */
  battery_low_pct?: number;
  /** the device is offline when no message came for this long (default 2 h: Zigbee2MQTT devices check in at least hourly) */
  expected_interval_s?: number;
}

export const DEFAULT_BATTERY_LOW_PCT = 10;
export const DEFAULT_EXPECTED_INTERVAL_S = 7200;

/** A mapping's settings resolved: what to read and what it means. */
export interface ResolvedMapping {
  path: readonly string[];
  active: boolean | number | string;
  type: SensorDetectionType | null;
  batteryPath: readonly string[];
  batteryLowPct: number;
  expectedIntervalMs: number;
}

export type MappingCheck = { ok: true; mapping: ResolvedMapping } | { ok: false; param: string; reason: string };

/** `a.b[0].c`, `$.a.b` → ['a', 'b', '0', 'c']; null when it is not such a path. */
export function parseJsonPath(raw: string): string[] | null {
  const s = raw.trim().replace(/^\$\.?/, '');
  if (!s) return null;
  const parts: string[] = [];
  const re = /([^.[\]]+)|\[(\d+)\]|\["([^"]+)"\]/g;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    if (m.index !== consumed && !(s[consumed] === '.' && m.index === consumed + 1)) return null;
    parts.push(m[1] ?? m[2] ?? m[3]);
    consumed = re.lastIndex;
  }
  return consumed === s.length && parts.length ? parts : null;
}

/** Resolves and checks a mapping; the reason names the field (the stream's `sensor.*`). */
export function resolveMapping(m: SensorMapping | null | undefined): MappingCheck {
  if (!m || (!m.preset && !m.json_path))
    return {
      ok: false,
      param: 'sensor',
      reason: `an mqtt stream needs sensor.preset (${SENSOR_PRESET_NAMES.join(', ')}) or sensor.json_path with sensor.type`,
    };
  if (m.preset && m.json_path) return { ok: false, param: 'sensor.json_path', reason: 'give either a preset or a json_path, not both' };
  const batteryPath = m.battery_path ? parseJsonPath(m.battery_path) : ['battery'];
  if (!batteryPath)
    return { ok: false, param: 'sensor.battery_path', reason: `${JSON.stringify(m.battery_path)} is not a path such as battery or status.battery` };
  const common = {
    batteryPath,
    batteryLowPct: m.battery_low_pct ?? DEFAULT_BATTERY_LOW_PCT,
    expectedIntervalMs: (m.expected_interval_s ?? DEFAULT_EXPECTED_INTERVAL_S) * 1000,
  };
  if (m.preset) {
    const p = SENSOR_PRESETS[m.preset];
    if (!p)
      return { ok: false, param: 'sensor.preset', reason: `unknown preset ${JSON.stringify(m.preset)}; the presets are ${SENSOR_PRESET_NAMES.join(', ')}` };
    return { ok: true, mapping: { path: [p.path], active: p.active, type: p.type, ...common } };
  }
  const path = parseJsonPath(m.json_path!);
  if (!path) return { ok: false, param: 'sensor.json_path', reason: `${JSON.stringify(m.json_path)} is not a path such as state.door or $.contact` };
  if (!m.type || !(SENSOR_DETECTION_TYPES as readonly string[]).includes(m.type)) {
    return { ok: false, param: 'sensor.type', reason: `with a json_path, type is one of ${SENSOR_DETECTION_TYPES.join(', ')}` };
  }
  return { ok: true, mapping: { path, active: m.active ?? true, type: m.type as SensorDetectionType, ...common } };
}

/** Why a message was dropped (counted per stream, shown on it). */
export type DropReason = 'not_json' | 'missing_field' | 'wrong_type' | 'unknown_preset' | 'too_large';
export const DROP_REASONS: readonly DropReason[] = ['not_json', 'missing_field', 'wrong_type', 'unknown_preset', 'too_large'];

/** The largest payload read; a device's state is a few hundred bytes. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

export type Reading = { ok: true; active: boolean | null; battery: number | null } | { ok: false; reason: DropReason };

function at(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** One payload read through a mapping: the state (null for a battery-only preset) and the battery, or why it is dropped. */
export function readPayload(payload: Buffer, mapping: ResolvedMapping): Reading {
  if (payload.length > MAX_PAYLOAD_BYTES) return { ok: false, reason: 'too_large' };
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not_json' };
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return { ok: false, reason: 'not_json' };
  const rawBattery = at(json, mapping.batteryPath);
  const battery = typeof rawBattery === 'number' && Number.isFinite(rawBattery) ? rawBattery : null;
  if (mapping.type === null) {
    if (rawBattery === undefined) return { ok: false, reason: 'missing_field' };
    if (battery === null) return { ok: false, reason: 'wrong_type' };
    return { ok: true, active: null, battery };
  }
  const value = at(json, mapping.path);
  if (value === undefined || value === null) return { ok: false, reason: 'missing_field' };
  if (typeof value !== typeof mapping.active) return { ok: false, reason: 'wrong_type' };
  return { ok: true, active: value === mapping.active, battery };
}

/**
 * The detection a state change is: active → the mapping's type; a contact turning inactive →
 * `door_closed` (the door's state is known both ways); other kinds say nothing when they clear.
 */
export function detectionForChange(type: SensorDetectionType, active: boolean, at: number): DetectionInput | null {
  if (active) return { type, subtype: null, confidence: 1, at, track_id: null, dwell_s: null };
  if (type === 'door_open') return { type: 'door_closed', subtype: null, confidence: 1, at, track_id: null, dwell_s: null };
  return null;
}

/** The detection types that record a mapping's state both ways (for reading the last known state back). */
export function stateTypesOf(type: SensorDetectionType): string[] {
  return type === 'door_open' ? ['door_open', 'door_closed'] : [type];
}
