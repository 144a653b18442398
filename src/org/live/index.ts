export { OrgEventFeed } from './org-event-feed.ts';
export { orgEventStreamRoutes } from './org-event-stream.routes.ts';
