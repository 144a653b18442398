import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { describeWatch, watchFields } from './fields.ts';

export const createWatch = defineTool({
  name: 'create_watch',
  schema: Type.Object(watchFields, { additionalProperties: false }),
  description: 'Keep a room or sensors under observation during a window, once or recurring.',
  actionType: 'watch.created',
  says: (the, action) => `I'm watching ${the}${action.window ? ` (${action.window})` : ''}.`,
  async run({ ports, scope }, a) {
    const w = await ports.watches.create(scope.principal, scope.actor, { ...a, conversation_id: scope.conversationId });
    return { action: describeWatch(w) };
  },
});
