// The module's public face: what other modules may import (docs/architecture.md).
export { toPrincipal } from './key.service.ts';

import { defineServiceModule, token } from '../lib/index.ts';
import { CLOCK } from '../time/index.ts';
import { DATABASE, externalCommitProbe } from '../db/index.ts';
import { AUDIT } from '../audit/index.ts';
import { COORDINATION } from '../coordination/index.ts';
import { KeyService as KeyServiceT, type KeyService } from './key.service.ts';
export { KeyService, type CreatedKey } from './key.service.ts';

import { defineApiModule } from '../http/index.ts';
import { ApiKeySchema } from './key.schemas.ts';
import { keyRoutes } from './key.routes.ts';

/** The keys module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const keysApi = defineApiModule({
  name: 'keys',
  tags: [{ name: 'Keys', description: 'API keys in account settings: create (shown once), list, revoke, rotate (both surfaces)' }],
  schemas: [ApiKeySchema],
  routes: ({ keys }: { keys: KeyService }) => keyRoutes(keys),
});

export const KEYS = token<KeyServiceT>('keys');

export const keyServices = defineServiceModule({
  name: 'keys',
  provide: (c) =>
    c.provide(
      KEYS,
      (c) =>
        new KeyServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          invalidation: c.get(COORDINATION).invalidation,
          // not asked while the other processes on the SQLite file announce their changes here
          externalCommits: externalCommitProbe(c.get(DATABASE), () => c.get(COORDINATION).invalidation.othersAnnounce === true),
          heldStreams: c.get(COORDINATION).heldStreams,
        }),
    ),
});
