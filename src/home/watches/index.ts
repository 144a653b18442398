import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { COORDINATION } from '../../platform/coordination/index.ts';
import { SCENE_ENGINE } from '../../org/scenes/index.ts';
import { PIPELINE } from '../../org/pipeline/index.ts';
import { ACTIVE_WATCHES, HOUSEHOLD_DIRECTORY } from '../directory/index.ts';
import { EVENTS } from '../events/index.ts';
import { HOUSEHOLD } from '../household/index.ts';
import { WatchService as WatchServiceT, type WatchService } from './watch.service.ts';
import { WatchObserver as WatchObserverT } from './watch-observer.ts';
import { watchRepository as watchRepositoryV } from './watch.repository.ts';
import { toKnownWatch as toKnownWatchV } from './known-watch.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { toKnownWatch } from './known-watch.ts';
export { WatchObserver } from './watch-observer.ts';
export { type WatchView } from './watch.schemas.ts';
export { WatchService } from './watch.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { WatchSchema } from './watch.schemas.ts';
import { watchRoutes } from './watch.routes.ts';

/** The watches module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const watchesApi = defineApiModule({
  name: 'watches',
  tags: [{ name: 'Watches', description: 'What the agent keeps under observation; list and stand down (Surface A)' }],
  schemas: [WatchSchema],
  routes: ({ watches }: { watches: WatchService }) => watchRoutes(watches),
});

export const WATCHES = token<WatchServiceT>('watches');

export const watchServices = defineServiceModule({
  name: 'watches',
  provide(c) {
    c.provide(ACTIVE_WATCHES, () => async (db, tenantId) => (await watchRepositoryV.listActive(db, tenantId)).map(toKnownWatchV));
    c.provide(
      WATCHES,
      (c) =>
        new WatchServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          events: c.get(EVENTS),
          household: c.get(HOUSEHOLD),
          invalidation: c.get(COORDINATION).invalidation,
        }),
    );
  },
  // watches observe through a pipeline hook, before incidents (200) and alert rules (300)
  install: (c) =>
    c.get(PIPELINE).addHook(new WatchObserverT({ directory: c.get(HOUSEHOLD_DIRECTORY), engine: c.get(SCENE_ENGINE), events: c.get(EVENTS) }), {
      name: 'watches.observer',
      order: 100,
    }),
});
