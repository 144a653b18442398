import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';

export const unmuteSensor = defineTool({
  name: 'unmute_sensor',
  schema: Type.Object({ sensor_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  description: 'Unmute a muted sensor.',
  actionType: 'sensor.unmuted',
  ownerOnly: 'unmute that',
  says: (the) => `I've unmuted ${the}.`,
  async run({ ports, scope }, a) {
    const s = await ports.household.muteSensor(scope.principal, scope.actor, a.sensor_id, false);
    return { action: { id: s.id, subject: s.name } };
  },
});
