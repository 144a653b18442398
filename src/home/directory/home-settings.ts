/**
 * A household's settings (tenants.settings JSON): where the home is, its time zone, and when the
 * sandbox home was provisioned. Sunset and sunrise come from lat/lon; local hours from time_zone.
 */
export interface HomeSettings {
  city: string | null;
  lat: number | null;
  lon: number | null;
  time_zone: string;
  /** set once the simulated home of a test key exists */
  provisioned_at: string | null;
  /** the household's opt-in to face recognition; off until turned on */
  face_recognition: boolean;
  /** the household's own default MQTT broker (mqtt://[user:password@]host[:port]) for sensors added by topic; null: the install's, if any */
  mqtt_broker: string | null;
}

/** Where a test-key household lives until told otherwise (the demo home is in Lisbon). */
export const DEMO_HOME_LOCATION = { city: 'Lisbon', lat: 38.7223, lon: -9.1393, time_zone: 'Europe/Lisbon' } as const;

export function parseHomeSettings(json: string): HomeSettings {
  let raw: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(json);
    if (v && typeof v === 'object') raw = v as Record<string, unknown>;
  } catch {
    // a malformed settings blob reads as empty settings rather than breaking the household
  }
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  return {
    city: typeof raw.city === 'string' ? raw.city : null,
    lat: num(raw.lat),
    lon: num(raw.lon),
    time_zone: typeof raw.time_zone === 'string' && raw.time_zone ? raw.time_zone : 'UTC',
    provisioned_at: typeof raw.provisioned_at === 'string' ? raw.provisioned_at : null,
    face_recognition: raw.face_recognition === true,
    mqtt_broker: typeof raw.mqtt_broker === 'string' && raw.mqtt_broker ? raw.mqtt_broker : null,
  };
}

/** Keeps the tenant's other settings keys (other features may store their own). */
export function mergeHomeSettings(json: string, patch: Partial<HomeSettings>): string {
  let raw: Record<string, unknown> = {};
  try {
    const v: unknown = JSON.parse(json);
    if (v && typeof v === 'object') raw = v as Record<string, unknown>;
  } catch {
    raw = {};
  }
  return JSON.stringify({ ...raw, ...patch });
}

/** "Front Porch" → "front_porch": the snake_case location of a room's streams and scene. */
export function toLocationKey(name: string): string {
  const key = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 56);
  return /^[a-z]/.test(key) ? key : `room_${key}`.replace(/_+$/, '');
}
