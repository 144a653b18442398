import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-kit.ts';
import { planSensorByTopic } from '../sensor-topic.ts';

export const addSensorByTopic = defineTool({
  name: 'add_sensor_by_topic',
  schema: Type.Object(
    {
      name: Type.String({ minLength: 1, maxLength: 100 }),
      kind: Type.Union([Type.Literal('contact'), Type.Literal('motion')], {
        description: 'contact: a door or window contact; motion: a motion or occupancy sensor',
      }),
      room: Type.String({ minLength: 1, maxLength: 100 }),
      topic: Type.String({
        minLength: 1,
        maxLength: 1024,
        pattern: '^[^+#\\s]+$',
        description: "the device's own MQTT topic, e.g. zigbee2mqtt/back_door: no wildcards, no spaces",
      }),
    },
    { additionalProperties: false, description: "A Zigbee2MQTT sensor on the household's default MQTT broker, by its topic alone" },
  ),
  description:
    'Add a door contact or motion sensor by its MQTT topic alone, on the household\'s default broker ("add the back door sensor, it\'s zigbee2mqtt/back_door").',
  actionType: 'sensor.added',
  ownerOnly: 'add sensors',
  says: (the) => `I've added ${the}.`,
  read: planSensorByTopic,
  llmRule:
    '"Add the back door sensor, it\'s zigbee2mqtt/back_door": add_sensor_by_topic with the kind the words say (contact or motion; ask when they do not), only when a default MQTT broker is listed above; with none, do not call a tool: ask for the broker\'s address. A topic with + or #, or a space, is a question.',
  async run({ ports, scope }, a) {
    const s = await ports.household.addSensorByTopic(scope.principal, scope.actor, a);
    const kind = s.kind === 'contact' ? 'a door or window contact' : 'a motion sensor';
    return {
      action: { id: s.id, subject: s.name, kind: s.kind, room: s.room, status: s.status, topic: s.topic, broker: s.broker },
      text: `I've added the ${s.name} in the ${s.room}: ${kind} reading the Zigbee2MQTT topic ${s.topic} on ${s.broker}.`,
    };
  },
});
