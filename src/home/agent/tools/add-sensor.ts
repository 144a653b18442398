import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { SensorKindSchema } from './fields.ts';

export const addSensor = defineTool({
  name: 'add_sensor',
  schema: Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      kind: SensorKindSchema,
      room: Type.String({ minLength: 1 }),
      source_url: Type.String({
        minLength: 1,
        description: 'rtsp://, http(s):// (MJPEG or HLS) or sandbox:// address; webrtc://<name> for a phone or browser that publishes to Vigil (WHIP)',
      }),
      source_type: Type.Optional(
        Type.String({
          description: 'the kind as the user said it: rtsp, http (MJPEG/HLS), webrtc (a WHIP publisher); omitted: taken from the URL, asked when unclear',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  description: 'Add a real sensor at an address ("add the camera at rtsp://… as the garage camera").',
  actionType: 'sensor.added',
  ownerOnly: 'add sensors',
  namesNewRoom: true,
  says: (the) => `I've added ${the}.`,
  async run({ ports, scope }, a) {
    const s = await ports.household.addSensor(scope.principal, scope.actor, a);
    // a WHIP publisher: the reply gives its publish link (shown once, like the organization API's)
    if (s.publish) {
      return {
        action: { id: s.id, subject: s.name, kind: s.kind, room: s.room, status: s.status, publish_url: s.publish.publish_url, whip_url: s.publish.whip_url },
        text: `I've added the ${s.name} in the ${s.room}. Open ${s.publish.publish_url} on the phone or browser that should publish its camera (the link carries its publish token: share it like a password); WHIP clients publish to ${s.publish.whip_url} with that token.`,
      };
    }
    return { action: { id: s.id, subject: s.name, kind: s.kind, room: s.room, status: s.status } };
  },
});
