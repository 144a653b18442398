import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';

export const setHousehold = defineTool({
  name: 'set_household',
  schema: Type.Object(
    {
      city: Type.Optional(Type.String({ minLength: 1 })),
      lat: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
      lon: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
      time_zone: Type.Optional(Type.String({ minLength: 1, description: 'IANA zone, e.g. Europe/Lisbon' })),
      rename_room: Type.Optional(Type.Object({ from: Type.String({ minLength: 1 }), to: Type.String({ minLength: 1 }) }, { additionalProperties: false })),
      face_recognition: Type.Optional(
        Type.Boolean({ description: "The household's opt-in to face recognition (off by default): cameras compare faces with the enrolled people" }),
      ),
    },
    { additionalProperties: false },
  ),
  description: "Set the home's city, coordinates or time zone, rename a room, or turn face recognition on or off.",
  actionType: 'household.updated',
  ownerOnly: "change the home's settings",
  says: () => "I've updated your home's settings.",
  async run({ ports, scope }, a) {
    const h = await ports.household.updateHome(scope.principal, scope.actor, a);
    const rename = a.rename_room;
    return { action: { city: h.city, lat: h.lat, lon: h.lon, time_zone: h.time_zone, ...(rename ? { rename_room: rename } : {}) } };
  },
});
