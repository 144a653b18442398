// The module's public face: what other modules may import (docs/architecture.md).
export { findResponder, listRespondersAtOrBelow } from './responder-queries.ts';
export { EscalationLevel, MAX_ESCALATION_LEVEL } from './responder.schemas.ts';
export { ResponderService } from './responder.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { ResponderService } from './responder.service.ts';
import { ResponderSchema } from './responder.schemas.ts';
import { responderRoutes } from './responder.routes.ts';

/** The responders module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const respondersApi = defineApiModule({
  name: 'responders',
  tags: [{ name: 'Responders', description: 'People and systems that protocol runs notify (Surface B)' }],
  schemas: [ResponderSchema],
  routes: ({ operations }: { operations: { responders: ResponderService } }) => responderRoutes(operations.responders),
});
