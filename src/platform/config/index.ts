import { token } from '../lib/index.ts';
import type { Config } from './config.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { NODE_ROLES, loadConfig, type Config, type HttpLimits, type NodeRole } from './config.ts';
export { type IceServer } from './ice-servers.ts';
export { type LlmConfig } from './llm-config.ts';
export { checkBrokerAddress, readMqttConfig, type MqttConfig } from './mqtt-config.ts';
export { type RecordingConfig } from './recording-config.ts';
export { readFaceConfig, type FaceEmbedderConfig } from './face-config.ts';
export { DETECTOR_DECODERS, readDetectorConfig, type DetectorDecoder, type DetectorModelConfig } from './detector-config.ts';

/** The configuration the process started with. */
export const CONFIG = token<Config>('config');
export { resolveNodeId } from './node-id.ts';
