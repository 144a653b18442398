// The module's public face: what other modules may import (docs/architecture.md).
export { ProtocolRunService } from './protocol-run.service.ts';
export { ProtocolTypeService } from './protocol-type.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { ProtocolRunService } from './protocol-run.service.ts';
import type { ProtocolTypeService } from './protocol-type.service.ts';
import { ProtocolRunSchema, ProtocolTypeSchema } from './protocol.schemas.ts';
import { protocolRoutes } from './protocol.routes.ts';

/** The protocols module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const protocolsApi = defineApiModule({
  name: 'protocols',
  tags: [{ name: 'Protocols', description: 'Response protocols run on incidents, with responder notification and escalation (Surface B)' }],
  schemas: [ProtocolRunSchema, ProtocolTypeSchema],
  routes: ({ operations }: { operations: { protocolTypes: ProtocolTypeService; protocolRuns: ProtocolRunService } }) =>
    protocolRoutes(operations.protocolTypes, operations.protocolRuns),
});
