import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { INGEST_GATE, PIPELINE } from '../pipeline/index.ts';
import { SCENES } from '../scenes/index.ts';
import { SandboxService as SandboxServiceT, type SandboxService } from './sandbox.service.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { SandboxService } from './sandbox.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { sandboxRoutes } from './sandbox.routes.ts';

/** The sandbox module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const sandboxApi = defineApiModule({
  name: 'sandbox',
  tags: [{ name: 'Sandbox', description: 'Synthetic scenes and on-demand test detections' }],
  schemas: [],
  routes: ({ sandbox }: { sandbox: SandboxService }) => sandboxRoutes(sandbox),
});

export const SANDBOX = token<SandboxServiceT>('sandbox');

export const sandboxServices = defineServiceModule({
  name: 'sandbox',
  provide: (c) =>
    c.provide(
      SANDBOX,
      (c) =>
        new SandboxServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          pipeline: c.get(PIPELINE),
          gate: c.get(INGEST_GATE),
          scenes: c.get(SCENES),
        }),
    ),
});
