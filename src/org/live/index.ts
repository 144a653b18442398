import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { defineApiModule } from '../../platform/http/index.ts';
import { CLOCK, type Clock as ClockT } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { WEBHOOKS } from '../../platform/outbox/index.ts';
import type { Coordination as CoordinationT, StreamSlots as StreamSlotsT } from '../../platform/coordination/index.ts';
import { SCENES } from '../scenes/index.ts';
import { PIPELINE } from '../pipeline/index.ts';
import { OrgEventFeed as OrgEventFeedT } from './org-event-feed.ts';
import { SceneHistoryService as SceneHistoryServiceT } from './scene-history.service.ts';
import { orgEventStreamRoutes as orgEventStreamRoutesF } from './org-event-stream.routes.ts';
import { sceneHistoryRoutes as sceneHistoryRoutesF } from './scene-history.routes.ts';
export { OrgEventFeed } from './org-event-feed.ts';
export { orgEventStreamRoutes } from './org-event-stream.routes.ts';
export { SceneHistoryService } from './scene-history.service.ts';
export { sceneHistoryRoutes } from './scene-history.routes.ts';

export const LIVE_FEED = token<OrgEventFeedT>('liveFeed');
export const SCENE_HISTORY = token<SceneHistoryServiceT>('sceneHistory');

export const liveServices = defineServiceModule({
  name: 'live',
  provide(c) {
    c.provide(LIVE_FEED, (c) => new OrgEventFeedT({ clock: c.get(CLOCK) }));
    c.provide(SCENE_HISTORY, (c) => new SceneHistoryServiceT({ database: c.get(DATABASE), clock: c.get(CLOCK), scenes: c.get(SCENES) }));
  },
  // the live feed sees scene updates (last among the pipeline hooks: it only reads) and every organization event the outbox writes
  install(c) {
    const feed = c.get(LIVE_FEED);
    c.get(PIPELINE).addHook(feed, { name: 'live.feed', order: 900 });
    c.get(WEBHOOKS).onEvent((e) => feed.publishWebhookEvent(e));
  },
});

/** The live feed's HTTP face: GET /v1/events/stream and scene history. */
export const liveApi = defineApiModule({
  name: 'live',
  tags: [{ name: 'Live', description: 'Organization events as server-sent events (Surface B)' }],
  schemas: [],
  routes:
    (c: { liveFeed: OrgEventFeedT; sceneHistory: SceneHistoryServiceT; streamSlots: StreamSlotsT; clock: ClockT; coordination: CoordinationT }) =>
    async (app) => {
      await app.register(orgEventStreamRoutesF(c.liveFeed, { slots: c.streamSlots, clock: c.clock, held: c.coordination.heldStreams }));
      await app.register(sceneHistoryRoutesF(c.sceneHistory));
    },
});
