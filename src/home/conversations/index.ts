import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CLOCK as CLOCK_T, type Clock } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { PLANNER } from '../agent/index.ts';
import { EVENTS } from '../events/index.ts';
import { HOUSEHOLD } from '../household/index.ts';
import { WATCHES } from '../watches/index.ts';
import { NOTIFICATIONS } from '../../platform/notify/index.ts';
import { ConversationService as ConversationServiceT, type ConversationService } from './conversation.service.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { ConversationService } from './conversation.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { Coordination, StreamSlots } from '../../platform/coordination/index.ts';
import { ActionSchema, ConversationReplySchema } from './conversation.schemas.ts';
import { conversationRoutes } from './conversation.routes.ts';

/** The conversations module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const conversationsApi = defineApiModule({
  name: 'conversations',
  tags: [{ name: 'Conversations', description: 'The household agent: plain-language requests, replies and actions (Surface A)' }],
  schemas: [ActionSchema, ConversationReplySchema],
  routes: (c: { conversations: ConversationService; streamSlots: StreamSlots; clock: Clock; config: { publicBaseUrl: string }; coordination: Coordination }) =>
    conversationRoutes(c.conversations, { slots: c.streamSlots, clock: c.clock, publicBaseUrl: c.config.publicBaseUrl, held: c.coordination.heldStreams }),
});

export const CONVERSATIONS = token<ConversationServiceT>('conversations');

export const conversationServices = defineServiceModule({
  name: 'conversations',
  provide: (c) =>
    c.provide(
      CONVERSATIONS,
      (c) =>
        new ConversationServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK_T),
          audit: c.get(AUDIT),
          household: c.get(HOUSEHOLD),
          watches: c.get(WATCHES),
          events: c.get(EVENTS),
          planner: c.get(PLANNER),
          notifications: c.get(NOTIFICATIONS),
        }),
    ),
});
