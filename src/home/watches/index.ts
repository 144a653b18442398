// The module's public face: what other modules may import (docs/architecture.md).
export { toKnownWatch } from './known-watch.ts';
export { WatchObserver } from './watch-observer.ts';
export { watchRepository } from './watch.repository.ts';
export { type WatchView } from './watch.schemas.ts';
export { WatchService } from './watch.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { WatchService } from './watch.service.ts';
import { WatchSchema } from './watch.schemas.ts';
import { watchRoutes } from './watch.routes.ts';

/** The watches module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const watchesApi = defineApiModule({
  name: 'watches',
  tags: [{ name: 'Watches', description: 'What the agent keeps under observation; list and stand down (Surface A)' }],
  schemas: [WatchSchema],
  routes: ({ watches }: { watches: WatchService }) => watchRoutes(watches),
});
