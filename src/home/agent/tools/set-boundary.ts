import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { placeRef } from './fields.ts';

export const setBoundary = defineTool({
  name: 'set_boundary',
  schema: Type.Object(placeRef, { additionalProperties: false, description: 'Leave a room or sensor alone' }),
  description: 'Leave a room or sensor alone ("leave the nursery alone").',
  actionType: 'boundary.set',
  ownerOnly: 'change boundaries',
  needsPlace: true,
  says: (the) => `I'll leave ${the} alone.`,
  async run({ ports, scope }, place) {
    const b = await ports.household.setBoundary(scope.principal, scope.actor, place);
    return { action: { id: b.id, ...(b.room ? { room: b.room } : {}), ...(b.sensor_id ? { sensor_id: b.sensor_id } : {}) } };
  },
});
