// The module's public face: what other modules may import (docs/architecture.md).
export { parseStreamConfig, type StreamVideoConfig } from './stream-config.ts';
export { type FrameOutcome } from './stream-runner.ts';
export { streamRepository, type StreamRow } from './stream.repository.ts';
export { PublishInfoSchema, StreamIdParams, type PublishInfo } from './stream.schemas.ts';
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
