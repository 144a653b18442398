// The module's public face: what other modules may import (docs/architecture.md).
export { createWebRtcIngest, type WebRtcIngestHandle } from './webrtc-ingest.ts';
export { PublishTokens, WhipService } from './whip.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { IceServer } from '../../platform/config/index.ts';
import type { WhipService } from './whip.service.ts';
import { publishPageRoutes, publishTokenRoutes, whipRoutes } from './whip.routes.ts';

/** The webrtc module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const webrtcApi = defineApiModule({
  name: 'webrtc',
  tags: [],
  schemas: [],
  routes: ({ whip, config }: { whip: WhipService; config: { iceServers: readonly IceServer[] } }) => async (app) => {
    await app.register(publishTokenRoutes(whip));
    await app.register(whipRoutes(whip, { iceServers: config.iceServers }));
    await app.register(publishPageRoutes({ iceServers: config.iceServers }));
  },
});
