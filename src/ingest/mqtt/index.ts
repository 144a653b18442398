// The module's public face: what other modules may import (docs/architecture.md).
// Sensors over MQTT (docs/decisions.md, "Sensors over MQTT"): source addresses, payload mappings
// (Zigbee2MQTT presets and JSON paths) and the shared broker connections.
export { brokerKey, describeBroker, MAX_TOPIC_CHARS, parseMqttUrl, type BrokerAddress, type MqttUrlCheck } from './mqtt-url.ts';
export {
  DEFAULT_BATTERY_LOW_PCT,
  DEFAULT_EXPECTED_INTERVAL_S,
  DROP_REASONS,
  MAX_PAYLOAD_BYTES,
  SENSOR_DETECTION_TYPES,
  SENSOR_PRESETS,
  SENSOR_PRESET_NAMES,
  detectionForChange,
  parseJsonPath,
  readPayload,
  resolveMapping,
  stateTypesOf,
  type DropReason,
  type MappingCheck,
  type PresetSpec,
  type Reading,
  type ResolvedMapping,
  type SensorDetectionType,
  type SensorMapping,
} from './sensor-mapping.ts';
export { MqttBrokerPool, type BrokerBackoff, type TopicListener } from './broker-pool.ts';
