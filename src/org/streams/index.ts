// The module's public face: what other modules may import (docs/architecture.md).


import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { SCENES } from '../scenes/index.ts';
import { StreamService as StreamServiceT, type StreamPublishing as StreamPublishingT } from './stream.service.ts';
import type { FrameFaceRecognizer as FrameFaceRecognizerT, StreamRunner as StreamRunnerT } from './stream-runner.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { parseStreamConfig, type StreamVideoConfig } from './stream-config.ts';
export { type FrameFaceRecognizer, type FrameOutcome } from './stream-runner.ts';
export { streamRepository, type StreamRow } from './stream.repository.ts';
export { PublishInfoSchema, StreamIdParams, type FrameFace, type PublishInfo } from './stream.schemas.ts';
export { StreamService } from './stream.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { StreamService } from './stream.service.ts';
import { StreamSchema } from './stream.schemas.ts';
import { streamRoutes } from './stream.routes.ts';
import { streamFrameRoutes } from './stream-frame.routes.ts';

/** The streams module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const streamsApi = defineApiModule({
  name: 'streams',
  tags: [{ name: 'Streams', description: 'Video and sensor sources (Surface B)' }],
  schemas: [StreamSchema],
  routes: ({ streams }: { streams: StreamService }) => async (app) => {
    await app.register(streamRoutes(streams));
    await app.register(streamFrameRoutes(streams));
  },
});

export const STREAMS = token<StreamServiceT>('streams');
/** port: runs each stream's source (ingest/sources provides it) */
export const STREAM_RUNNER = token<StreamRunnerT>('streamRunner');
/** port: WHIP publish tokens of webrtc streams (ingest/webrtc provides it) */
export const STREAM_PUBLISHING = token<StreamPublishingT>('streamPublishing');
/** port: face recognition on phone frames (org/people provides it, issue 14) */
export const FRAME_FACES = token<FrameFaceRecognizerT>('frameFaces');

export const streamServices = defineServiceModule({
  name: 'streams',
  provide: (c) => c.provide(STREAMS, (c) => new StreamServiceT({
    database: c.get(DATABASE),
    clock: c.get(CLOCK),
    audit: c.get(AUDIT),
    scenes: c.get(SCENES),
    sources: c.get(STREAM_RUNNER),
    allowFileSources: c.get(CONFIG).allowFileSources,
    publishing: c.get(STREAM_PUBLISHING),
    faces: c.get(FRAME_FACES),
  })),
});
