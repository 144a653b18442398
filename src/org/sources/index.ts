import { defineServiceModule, LOG, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { CLUSTER_LEASES } from '../../platform/coordination/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { WEBHOOKS } from '../../platform/outbox/index.ts';
import { SNAPSHOTS } from '../detections/index.ts';
import { INGEST_GATE, PIPELINE } from '../pipeline/index.ts';
import { STREAM_RUNNER } from '../streams/index.ts';
import { WHIP_INGEST, WHIP_TUNING } from '../webrtc/index.ts';
import {
  LiveVideoSources as LiveVideoSourcesT,
  type LiveFaceRecognition as LiveFaceRecognitionT,
  type LiveVideoTuning as LiveVideoTuningT,
  type StreamRecording as StreamRecordingT,
} from './live-video-sources.ts';
import { SourceManager as SourceManagerT } from './source-manager.ts';
import { MqttSources as MqttSourcesT } from './mqtt-sources.ts';
import { MqttBrokerPool, type BrokerBackoff } from '../../ingest/mqtt/index.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { LiveVideoSources, type LiveFaceRecognition, type LiveVideoTuning, type StreamRecording } from './live-video-sources.ts';
export { SourceManager } from './source-manager.ts';
export { MqttSources, type SensorStateListener } from './mqtt-sources.ts';
export { writeStreamStatus } from './stream-status.ts';

export const LIVE_VIDEO = token<LiveVideoSourcesT>('liveVideo');
export const SOURCES = token<SourceManagerT>('sources');
/** real-video timers and detector threads (tests shorten them); undefined = the defaults */
export const VIDEO_TUNING = token<LiveVideoTuningT | undefined>('videoTuning');
/** port: live face recognition of tracked people, provided by org/people */
export const LIVE_FACES = token<LiveFaceRecognitionT>('liveFaces');
/** sandbox tick period (tests with a manual clock use coarse ticks); undefined = the default */
export const SANDBOX_TICK_MS = token<number | undefined>('sandboxTickMs');
export const MQTT_SOURCES = token<MqttSourcesT>('mqttSources');
/** MQTT broker reconnection backoff (tests shorten it); undefined = the defaults (1 s doubling to 30 s) */
export const MQTT_BACKOFF = token<BrokerBackoff | undefined>('mqttBackoff');
/** port: recording of real streams, provided by org/recordings (null: not recorded) */
export const STREAM_RECORDING = token<StreamRecordingT | null>('streamRecording');

export const sourceServices = defineServiceModule({
  name: 'sources',
  provide(c) {
    c.provide(VIDEO_TUNING, () => undefined);
    c.provide(SANDBOX_TICK_MS, () => undefined);
    c.provide(
      LIVE_VIDEO,
      (c) =>
        new LiveVideoSourcesT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          pipeline: c.get(PIPELINE),
          snapshots: c.get(SNAPSHOTS),
          webhooks: c.get(WEBHOOKS),
          tuning: c.get(VIDEO_TUNING),
          faces: c.get(LIVE_FACES),
          log: c.get(LOG),
          detectorModel: c.get(CONFIG).detector,
          fence: c.get(CLUSTER_LEASES),
          recording: c.get(STREAM_RECORDING),
        }),
    );
    c.provide(MQTT_BACKOFF, () => undefined);
    c.provide(
      MQTT_SOURCES,
      (c) =>
        new MqttSourcesT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          pipeline: c.get(PIPELINE),
          webhooks: c.get(WEBHOOKS),
          fence: c.get(CLUSTER_LEASES),
          log: c.get(LOG),
          pool: new MqttBrokerPool({ backoff: c.get(MQTT_BACKOFF), log: c.get(LOG), clientIdPrefix: `vigil_${c.get(CONFIG).nodeId}` }),
        }),
    );
    c.provide(
      SOURCES,
      (c) =>
        new SourceManagerT({
          clock: c.get(CLOCK),
          pipeline: c.get(PIPELINE),
          tickMs: c.get(SANDBOX_TICK_MS),
          log: c.get(LOG),
          video: c.get(LIVE_VIDEO),
          mqtt: c.get(MQTT_SOURCES),
          gate: c.get(INGEST_GATE),
          knownPeople: (tenantId: string) => c.get(LIVE_FACES).enrolledPeopleNow(tenantId),
          clustered: c.get(CONFIG).cluster,
        }),
    );
    c.provide(STREAM_RUNNER, (c) => c.get(SOURCES));
    c.provide(WHIP_INGEST, (c) => c.get(SOURCES));
    c.provide(WHIP_TUNING, (c) => {
      const video = c.get(VIDEO_TUNING);
      return { detectFps: video?.camera?.detectFps, detectWidth: video?.camera?.detectWidth, session: video?.whip };
    });
  },
});
