import { Type, type Static } from '@sinclair/typebox';
import { IsoTime, MAX_URL_CHARS } from '../../platform/http/index.ts';

export const SensorSchema = Type.Object(
  {
    id: Type.String({ description: 'stream_…: a household sensor is a stream of the household' }),
    object: Type.Literal('sensor'),
    name: Type.String({ examples: ['Back door contact'] }),
    kind: Type.Union([Type.Literal('camera'), Type.Literal('contact'), Type.Literal('motion')]),
    room: Type.String({ examples: ['back door'] }),
    location: Type.String({ description: 'snake_case location of the sensor stream and its scene', examples: ['back_door'] }),
    sandbox: Type.Boolean(),
    status: Type.String(),
    muted: Type.Boolean(),
    left_alone: Type.Boolean({ description: 'true when the sensor or its room is under a boundary' }),
    created_at: IsoTime,
  },
  { $id: 'Sensor' },
);
export type SensorView = Static<typeof SensorSchema>;

export const BoundarySchema = Type.Object(
  {
    id: Type.String({ description: 'bnd_…' }),
    object: Type.Literal('boundary'),
    room: Type.Union([Type.String(), Type.Null()], { description: 'the room left alone (null when the boundary is on one sensor)' }),
    sensor_id: Type.Union([Type.String(), Type.Null()]),
    set_at: IsoTime,
    cleared_at: Type.Union([IsoTime, Type.Null()]),
  },
  { $id: 'Boundary' },
);
export type BoundaryView = Static<typeof BoundarySchema>;

export const HouseholdSchema = Type.Object({
  id: Type.String({ description: 'hh_…' }),
  object: Type.Literal('household'),
  name: Type.String(),
  city: Type.Union([Type.String(), Type.Null()]),
  lat: Type.Union([Type.Number(), Type.Null()]),
  lon: Type.Union([Type.Number(), Type.Null()]),
  time_zone: Type.String({ examples: ['Europe/Lisbon'] }),
  face_recognition: Type.Boolean({
    description:
      'cameras compare faces with the enrolled people (POST /v1/people); off until turned on through the agent ("turn on face recognition"), and while off no face descriptor is computed',
  }),
  rooms: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), location: Type.String(), left_alone: Type.Boolean() })),
  sensors: Type.Array(Type.Ref('Sensor')),
  boundaries: Type.Array(Type.Ref('Boundary'), { description: 'boundaries in effect' }),
});
export type HouseholdView = Static<typeof HouseholdSchema>;

export const MqttBrokerSchema = Type.Object(
  {
    object: Type.Literal('mqtt_broker'),
    url: Type.Union([Type.String(), Type.Null()], {
      description: 'scheme, host and port of the broker sensors added by topic are on (never its credentials); null: none set',
      examples: ['mqtt://192.168.1.10:1883'],
    }),
    source: Type.Union([Type.Literal('household'), Type.Literal('install'), Type.Null()], {
      description: "household: this household's own; install: the server's VIGIL_MQTT_DEFAULT_BROKER; null: none",
    }),
    has_credentials: Type.Boolean({ description: 'whether the broker address carries a user name and password' }),
  },
  { $id: 'MqttBroker' },
);
export type MqttBrokerView = Static<typeof MqttBrokerSchema>;

export const PutMqttBrokerBody = Type.Object(
  {
    url: Type.Union(
      [Type.String({ minLength: 1, maxLength: MAX_URL_CHARS, description: 'mqtt://[user:password@]host[:port] or mqtts://…, without a topic' }), Type.Null()],
      {
        description: "the household's default broker; null clears it (the install's, if any, applies again)",
      },
    ),
  },
  { additionalProperties: false },
);
