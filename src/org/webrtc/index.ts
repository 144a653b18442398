import { defineServiceModule, LOG, token } from '../../platform/lib/index.ts';
import { CONFIG, type IceServer } from '../../platform/config/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { PEER_LINK } from '../../platform/coordination/index.ts';
import { STREAMS, STREAM_PUBLISHING } from '../streams/index.ts';
import {
  type WebRtcIngestLookup as WebRtcIngestLookupT,
  type WhipService,
  PublishTokens as PublishTokensT,
  WhipService as WhipServiceT,
} from './whip.service.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { createWebRtcIngest, type WebRtcIngestHandle } from './webrtc-ingest.ts';
export { PublishTokens, WhipService } from './whip.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { publishPageRoutes, publishTokenRoutes, whipRoutes } from './whip.routes.ts';

/** The webrtc module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const webrtcApi = defineApiModule({
  name: 'webrtc',
  tags: [],
  schemas: [],
  routes:
    ({ whip, config }: { whip: WhipService; config: { iceServers: readonly IceServer[] } }) =>
    async (app) => {
      await app.register(publishTokenRoutes(whip));
      await app.register(whipRoutes(whip, { iceServers: config.iceServers }));
      await app.register(publishPageRoutes({ iceServers: config.iceServers }));
    },
});

export const PUBLISH_TOKENS = token<PublishTokensT>('publishTokens');
/** port: where a publisher's frames go (org/sources provides it) */
export const WHIP_INGEST = token<WebRtcIngestLookupT>('whipIngest');
/** detector pacing and session timers of WHIP publishers (tests shorten the timers) */
export const WHIP_TUNING = token<{
  detectFps?: number;
  detectWidth?: number;
  session?: { connectTimeoutMs?: number; mediaTimeoutMs?: number; disconnectedGraceMs?: number };
}>('whipTuning');
export const WHIP = token<WhipServiceT>('whip');

export const webrtcServices = defineServiceModule({
  name: 'webrtc',
  provide(c) {
    c.provide(PUBLISH_TOKENS, (c) => new PublishTokensT({ clock: c.get(CLOCK), publicBaseUrl: c.get(CONFIG).publicBaseUrl }));
    c.provide(STREAM_PUBLISHING, (c) => c.get(PUBLISH_TOKENS));
    c.provide(WHIP, (c) => {
      const config = c.get(CONFIG);
      const tuning = c.get(WHIP_TUNING);
      return new WhipServiceT({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        audit: c.get(AUDIT),
        streams: c.get(STREAMS),
        tokens: c.get(PUBLISH_TOKENS),
        sources: c.get(WHIP_INGEST),
        iceServers: config.iceServers,
        detectFps: tuning.detectFps,
        detectWidth: tuning.detectWidth,
        session: tuning.session,
        log: c.get(LOG),
        peers: c.get(PEER_LINK),
      });
    });
  },
});
