import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { describeWatch } from './fields.ts';

export const standDownWatch = defineTool({
  name: 'stand_down_watch',
  schema: Type.Object({ watch_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  description: 'Stand a watch down at once.',
  actionType: 'watch.stood_down',
  needsActiveWatch: true,
  says: (the) => `I've stood down the watch on ${the}.`,
  async run({ ports, scope }, a) {
    const w = await ports.watches.standDown(scope.principal, scope.actor, a.watch_id);
    // the watch as it was, so "put it back" can restore it (context.ts, rememberAction)
    return { action: { ...describeWatch(w), sensor_ids: w.sensor_ids, conditions: w.conditions ?? null, person_ids: w.person_ids ?? null } };
  },
});
