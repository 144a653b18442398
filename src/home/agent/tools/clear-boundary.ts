import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { placeRef } from './fields.ts';

export const clearBoundary = defineTool({
  name: 'clear_boundary',
  schema: Type.Object(placeRef, { additionalProperties: false, description: 'Lift a boundary; only on explicit request' }),
  description: 'Lift a boundary ("you can watch the nursery again"). Only on explicit request.',
  actionType: 'boundary.cleared',
  ownerOnly: 'lift that',
  needsPlace: true,
  says: (the) => `I can watch ${the} again.`,
  async run({ ports, scope }, place) {
    const b = await ports.household.clearBoundary(scope.principal, scope.actor, place);
    return { action: { id: b.id, ...(b.room ? { room: b.room } : {}), ...(b.sensor_id ? { sensor_id: b.sensor_id } : {}) } };
  },
});
