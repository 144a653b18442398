// The module's public face: what other modules may import (docs/architecture.md).
export { ConversationService } from './conversation.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import type { StreamSlots } from '../../platform/coordination/index.ts';
import type { ConversationService } from './conversation.service.ts';
import { ActionSchema, ConversationReplySchema } from './conversation.schemas.ts';
import { conversationRoutes } from './conversation.routes.ts';

/** The conversations module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const conversationsApi = defineApiModule({
  name: 'conversations',
  tags: [{ name: 'Conversations', description: 'The household agent: plain-language requests, replies and actions (Surface A)' }],
  schemas: [ActionSchema, ConversationReplySchema],
  routes: (c: { conversations: ConversationService; streamSlots: StreamSlots; clock: Clock; config: { publicBaseUrl: string } }) =>
    conversationRoutes(c.conversations, { slots: c.streamSlots, clock: c.clock, publicBaseUrl: c.config.publicBaseUrl }),
});
