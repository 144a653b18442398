// The module's public face: what other modules may import (docs/architecture.md).

import { defineServiceModule, token, LOG } from '../../platform/lib/index.ts';
import { METRICS } from '../../platform/metrics/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { SCENES } from '../scenes/index.ts';
import { availableParallelism } from 'node:os';
import { CLUSTER_LEASES, PEER_LINK } from '../../platform/coordination/index.ts';
import { ClusterStreamRunner, LocalStreamRunner, StreamOwnership as StreamOwnershipT, type OwnershipTuning } from './stream-ownership.ts';
import { StreamService as StreamServiceT, type StreamPublishing as StreamPublishingT, type StreamService } from './stream.service.ts';
import type { FrameFaceRecognizer as FrameFaceRecognizerT, StreamRunner as StreamRunnerT } from './stream-runner.ts';
export { parseStreamConfig, type StreamVideoConfig } from './stream-config.ts';
export { type FrameFaceRecognizer, type FrameOutcome } from './stream-runner.ts';
export { type StreamRow } from './stream.repository.ts';
export {
  findStream,
  findStreamById,
  listStreamsOfTenant,
  listStreamSceneIds,
  listStreamsOfScene,
  listRunnableStreams,
  updateStream,
} from './stream-queries.ts';
export { PublishInfoSchema, StreamIdParams, type FrameFace, type PublishInfo, type SensorLiveView } from './stream.schemas.ts';
export { StreamService, assertBrokerAllowed } from './stream.service.ts';
export { decideSourceType, type SourceKind, type SourceKindDecision } from './source-kind.ts';
export { DEFAULT_OWNERSHIP_TUNING, StreamOwnership, type OwnershipTuning } from './stream-ownership.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { StreamSchema } from './stream.schemas.ts';
import { streamRoutes } from './stream.routes.ts';
import { streamFrameRoutes } from './stream-frame.routes.ts';

/** The streams module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const streamsApi = defineApiModule({
  name: 'streams',
  tags: [{ name: 'Streams', description: 'Video and sensor sources (Surface B)' }],
  schemas: [StreamSchema],
  routes:
    ({ streams }: { streams: StreamService }) =>
    async (app) => {
      await app.register(streamRoutes(streams));
      await app.register(streamFrameRoutes(streams));
    },
});

export const STREAMS = token<StreamServiceT>('streams');
/** port: runs each stream's source (org/sources provides it) */
export const STREAM_RUNNER = token<StreamRunnerT>('streamRunner');
/** port: WHIP publish tokens of webrtc streams (org/webrtc provides it) */
export const STREAM_PUBLISHING = token<StreamPublishingT>('streamPublishing');
/** port: face recognition on phone frames (org/people provides it) */
export const FRAME_FACES = token<FrameFaceRecognizerT>('frameFaces');

/** resolves when ingested detections are durable (the composition root hands in the pipeline's drain) */
export const STREAM_DRAIN = token<() => Promise<void>>('streamDrain');
/** this node's share weight in cluster mode: its detector threads (default half the cores, as the detector pool) */
export const STREAM_CAPACITY = token<number>('streamCapacity');
/** lease ttl and tick (tests shorten them); undefined = the defaults */
export const OWNERSHIP_TUNING = token<OwnershipTuning | undefined>('ownershipTuning');
/** cluster mode on a node that runs streams: which streams this node runs; null otherwise */
export const STREAM_OWNERSHIP = token<StreamOwnershipT | null>('streamOwnership');
/** the runner the streams service starts and stops sources through, and asks where streams run */
const OWNED_RUNNER = token<LocalStreamRunner | ClusterStreamRunner>('ownedStreamRunner');

export const streamServices = defineServiceModule({
  name: 'streams',
  provide(c) {
    c.provide(STREAM_DRAIN, () => async () => undefined);
    c.provide(STREAM_CAPACITY, () => Math.max(1, Math.floor(availableParallelism() / 2)));
    c.provide(OWNERSHIP_TUNING, () => undefined);
    c.provide(STREAM_OWNERSHIP, (c) => {
      const config = c.get(CONFIG);
      const leases = c.get(CLUSTER_LEASES);
      if (!config.cluster || !leases || config.role === 'api' || !config.runSources) return null;
      return new StreamOwnershipT({
        database: c.get(DATABASE),
        leases,
        runner: c.get(STREAM_RUNNER),
        scenes: c.get(SCENES),
        nodeId: config.nodeId,
        role: config.role,
        capacity: c.get(STREAM_CAPACITY),
        drain: c.get(STREAM_DRAIN),
        tuning: c.get(OWNERSHIP_TUNING),
        log: c.get(LOG),
        internalUrl: config.internalUrl,
        onHeld: (n) => c.get(METRICS).setLeasesHeld(n),
      });
    });
    c.provide(OWNED_RUNNER, (c) => {
      const leases = c.get(CLUSTER_LEASES);
      return leases
        ? new ClusterStreamRunner(c.get(STREAM_RUNNER), leases, c.get(STREAM_OWNERSHIP), c.get(PEER_LINK))
        : new LocalStreamRunner(c.get(STREAM_RUNNER), c.get(CONFIG).nodeId, () => c.get(CLOCK).now());
    });
    c.provide(STREAMS, (c) => {
      const streams = new StreamServiceT({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        audit: c.get(AUDIT),
        scenes: c.get(SCENES),
        sources: c.get(OWNED_RUNNER),
        allowFileSources: c.get(CONFIG).allowFileSources,
        publishing: c.get(STREAM_PUBLISHING),
        faces: c.get(FRAME_FACES),
        assignments: c.get(OWNED_RUNNER),
        peers: c.get(PEER_LINK),
        mqttAllowPrivate: c.get(CONFIG).mqtt.allowPrivate,
      });
      // a sandbox follows its scene's local day: a new time zone restarts it there
      c.get(SCENES).onTimeZoneChange((sceneId, timeZone) => {
        streams
          .restartSandboxes(sceneId, timeZone)
          .catch((err: unknown) => c.get(LOG)?.warn({ err, scene_id: sceneId }, 'restarting sandbox streams in a new time zone failed'));
      });
      return streams;
    });
  },
});
