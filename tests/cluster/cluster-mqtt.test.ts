import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import { startMosquitto, type Mosquitto } from '../helpers/mosquitto.ts';
import { sleep, startTestCluster, waitUntil, type TestCluster } from './cluster-harness.ts';

/**
 * Real processes (PostgreSQL + Redis + three nodes + HAProxy + Mosquitto): an MQTT sensor is a
 * stream like a camera, owned by one node through its lease (docs/decisions.md, "Sensors over
 * MQTT"). Only the owner subscribes, so a change of state is one detection and Vigil's events out
 * carry it once; after the owner is killed the new owner takes the device over from its stored
 * and retained state, without reporting the old state again.
 */
let c: TestCluster;
let broker: Mosquitto;
before(
  async () => {
    broker = await startMosquitto();
    c = await startTestCluster({ env: { VIGIL_MQTT_ALLOW_PRIVATE: '1', VIGIL_MQTT_PUBLISH_URL: broker.url } });
  },
  { timeout: 240_000 },
);
after(async () => {
  await c?.close();
  await broker?.close();
});

const step = (what: string) => process.stdout.write(`# ${new Date().toISOString().slice(11, 19)} ${what}\n`);

test('an MQTT sensor is run by its owner alone: one detection per change, published once; after kill -9, by the new owner', { timeout: 150_000 }, async () => {
  step('start');
  const made = await c.api(c.keys.liveOrg, 'POST', '/v1/streams', {
    name: 'Gate contact',
    source_type: 'mqtt',
    source_url: `${broker.url}/zigbee2mqtt/yard_gate`,
    location: 'yard_gate',
    sensor: { preset: 'contact' },
  });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  const id = made.body.id as string;
  step('created');
  const types = async () => (await c.sql<{ type: string }>('select type from detections where stream_id = $1 order by at', [id])).map((r) => r.type);
  const owner = async (not?: string) =>
    (await waitUntil(
      'an owner of the sensor',
      async () => {
        const o = (await c.owners()).get(id);
        return o && o !== not ? o : null;
      },
      20_000,
      200,
    ))!;
  // Home Assistant's side of the broker: what Vigil publishes about the gate
  const watcher = await mqtt.connectAsync(broker.url, { connectTimeout: 5_000, reconnectPeriod: 0 });
  const out: string[] = [];
  watcher.on('message', (topic) => {
    if (topic.includes('/detections/yard_gate/')) out.push(topic.split('/').pop()!);
  });
  await watcher.subscribeAsync('vigil/#');
  const device = await mqtt.connectAsync(broker.url, { connectTimeout: 5_000, reconnectPeriod: 0 });
  step('connected');
  try {
    const ownerId = await owner();
    step(`owned by ${ownerId}`);
    await waitUntil(
      'the sensor live on its owner',
      async () => (await c.sql<{ status: string }>('select status from streams where id = $1', [id]))[0].status === 'live',
      20_000,
    );
    step('live');
    // retained, as Zigbee2MQTT sends with `retain: true`: a node subscribing later reads the last state
    await device.publishAsync('zigbee2mqtt/yard_gate', JSON.stringify({ contact: false, battery: 88 }), { retain: true });
    await waitUntil('the door_open detection', async () => (await types()).includes('door_open'), 10_000);
    await waitUntil('the detection published', async () => out.includes('door_open'), 10_000);
    step('opened');
    await sleep(1_500); // a second subscriber on another node would have written and published by now
    assert.deepEqual(await types(), ['door_open'], 'one detection for one change, though three nodes run');
    assert.deepEqual(out, ['door_open'], 'published once cluster-wide');

    await c.byId(ownerId).kill9();
    const next = await owner(ownerId);
    step(`taken over by ${next}`);
    // the gate closes around the takeover: whether the new owner is subscribed yet or reads the
    // retained state on subscribing, the closing is one detection and the opening is not repeated
    await device.publishAsync('zigbee2mqtt/yard_gate', JSON.stringify({ contact: true, battery: 88 }), { retain: true });
    await waitUntil('the door_closed detection', async () => (await types()).includes('door_closed'), 15_000);
    await waitUntil('the closing published', async () => out.includes('door_closed'), 10_000);
    step('closed');
    await sleep(1_500);
    assert.deepEqual(await types(), ['door_open', 'door_closed']);
    assert.deepEqual(out, ['door_open', 'door_closed']);
  } finally {
    device.end(true);
    watcher.end(true);
  }
});
