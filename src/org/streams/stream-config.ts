import type { Polygon, Zone } from '../../ingest/video/index.ts';
import type { SensorMapping } from '../../ingest/mqtt/index.ts';

/**
 * What the stream row's `config` JSON holds: named zones inside the camera
 * view and motion masks (areas whose movement the motion gate ignores: trees, a TV, a road).
 * Polygons are in normalised image coordinates, 0..1 from the top-left corner.
 */
export interface StreamVideoConfig {
  zones: Zone[];
  motion_masks: Polygon[];
  /** mqtt streams: how the device's payload reads (docs/decisions.md, "Sensors over MQTT"); absent otherwise */
  sensor?: SensorMapping;
}

export function parseStreamConfig(raw: string): StreamVideoConfig {
  let parsed: Partial<StreamVideoConfig> = {};
  try {
    parsed = JSON.parse(raw) as Partial<StreamVideoConfig>;
  } catch {
    // a config written by hand that does not parse: treat as empty rather than fail the stream
  }
  const out: StreamVideoConfig = {
    zones: Array.isArray(parsed.zones) ? parsed.zones : [],
    motion_masks: Array.isArray(parsed.motion_masks) ? parsed.motion_masks : [],
  };
  if (parsed.sensor && typeof parsed.sensor === 'object') out.sensor = parsed.sensor;
  return out;
}
