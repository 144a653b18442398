import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { describeWatch, Recurrence, watchFields } from './fields.ts';

export const updateWatch = defineTool({
  name: 'update_watch',
  schema: Type.Object(
    {
      watch_id: Type.String({ minLength: 1 }),
      subject: Type.Optional(watchFields.subject),
      sensor_ids: Type.Optional(watchFields.sensor_ids),
      starts_at: Type.Optional(watchFields.starts_at),
      ends_at: Type.Optional(watchFields.ends_at),
      recurrence: Type.Optional(Recurrence),
      window: Type.Optional(watchFields.window),
      conditions: watchFields.conditions,
      person_ids: watchFields.person_ids,
    },
    { additionalProperties: false },
  ),
  description: 'Change the window, recurrence, subject or conditions of an active watch.',
  actionType: 'watch.updated',
  needsActiveWatch: true,
  says: (the) => `I've updated the watch on ${the}.`,
  async run({ ports, scope }, { watch_id, ...change }) {
    return { action: describeWatch(await ports.watches.update(scope.principal, scope.actor, watch_id, change)) };
  },
});
