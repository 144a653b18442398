import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { placeRef } from './fields.ts';

export const describeScene = defineTool({
  name: 'describe_scene',
  schema: Type.Object(placeRef, { additionalProperties: false }),
  description: 'Describe what a room or sensor shows now.',
  actionType: 'scene.described',
  needsPlace: true,
  says: (the) => `I looked at ${the}.`,
  async run({ ports, scope, revealed }, place) {
    const d = await ports.household.describe(scope.principal, scope.actor, place);
    for (const id of d.sensorIds) revealed.add(id);
    return { action: { subject: d.subject, people: d.people, vehicles: d.vehicles, ...d.freshness }, text: d.text };
  },
});
