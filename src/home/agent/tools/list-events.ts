import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { IsoTime, placeRef, WATCH_CONDITIONS } from './fields.ts';

/** "what happened in the backyard last night?": every recorded detection, the watch events and the coverage (conversations/past-answer.ts). */
export const listEvents = defineTool({
  name: 'list_events',
  schema: Type.Object(
    {
      since: Type.Optional(IsoTime('Only events at or after this time')),
      until: Type.Optional(IsoTime('Only events at or before this time (a period that is over: "last night")')),
      kind: Type.Optional(Type.String({ description: 'alert, observation, or a condition: ' + WATCH_CONDITIONS.join(', ') })),
      watch_id: Type.Optional(Type.String({ minLength: 1 })),
      // additive filters so "any cars in the driveway today?" keeps its place
      room: placeRef.room,
      sensor_id: placeRef.sensor_id,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    },
    { additionalProperties: false },
  ),
  description: 'List or search recent observations and alerts, newest first.',
  actionType: 'events.listed',
  says: () => 'Here are the recent events.',
  async run({ ports, scope, revealed }, a) {
    const { principal, timeZone } = scope;
    const watchSensors = a.watch_id ? (await ports.watches.get(principal, a.watch_id)).sensor_ids : undefined;
    const answer = await ports.answerPast(principal, timeZone, { ...a, ...(watchSensors ? { watch_sensor_ids: watchSensors } : {}) });
    for (const id of answer.revealed) revealed.add(id);
    return { action: answer.action, text: answer.text };
  },
});
