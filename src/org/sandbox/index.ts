// The module's public face: what other modules may import (docs/architecture.md).
export { SandboxService } from './sandbox.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { SandboxService } from './sandbox.service.ts';
import { sandboxRoutes } from './sandbox.routes.ts';

/** The sandbox module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const sandboxApi = defineApiModule({
  name: 'sandbox',
  tags: [{ name: 'Sandbox', description: 'Synthetic scenes and on-demand test detections' }],
  schemas: [],
  routes: ({ sandbox }: { sandbox: SandboxService }) => sandboxRoutes(sandbox),
});
