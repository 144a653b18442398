import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';

export const muteSensor = defineTool({
  name: 'mute_sensor',
  schema: Type.Object({ sensor_id: Type.String({ minLength: 1 }) }, { additionalProperties: false }),
  description: 'Mute a sensor: no events, no descriptions, cannot be watched.',
  actionType: 'sensor.muted',
  ownerOnly: 'mute sensors',
  says: (the) => `I've muted ${the}.`,
  async run({ ports, scope }, a) {
    const s = await ports.household.muteSensor(scope.principal, scope.actor, a.sensor_id, true);
    return { action: { id: s.id, subject: s.name } };
  },
});
