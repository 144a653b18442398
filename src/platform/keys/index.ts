import { defineApiModule } from '../http/api-module.ts';
import type { KeyService } from './key.service.ts';
import { ApiKeySchema } from './key.schemas.ts';
import { keyRoutes } from './key.routes.ts';

/** The keys module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const keysApi = defineApiModule({
  name: 'keys',
  tags: [{ name: 'Keys', description: 'API keys in account settings: create (shown once), list, revoke, rotate (both surfaces)' }],
  schemas: [ApiKeySchema],
  routes: ({ keys }: { keys: KeyService }) => keyRoutes(keys),
});
