import { defineApiModule } from '../../platform/http/api-module.ts';
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
