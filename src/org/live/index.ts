export { OrgEventFeed } from './org-event-feed.ts';
export { orgEventStreamRoutes } from './org-event-stream.routes.ts';
export { SceneHistoryService } from './scene-history.service.ts';
export { sceneHistoryRoutes } from './scene-history.routes.ts';
