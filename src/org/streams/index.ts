import { defineApiModule } from '../../platform/http/api-module.ts';
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
