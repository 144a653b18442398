/**
 * Sensors over MQTT, end to end (docs/decisions.md, "Sensors over MQTT"): a Zigbee2MQTT-shaped
 * contact sensor published to a real Mosquitto opens and closes the household's back door in
 * Vigil; a watch on it raises an event and a signed webhook; "is the back door open?" answers
 * from the real state with its time; the same sensor shows in Home Assistant discovery messages,
 * and the detection, its state and the watch's event go out under Vigil's topic tree, as a real
 * `mqtt` subscriber on the same broker sees them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import { DIALECTS } from '../helpers/harness.ts';
import { startMosquitto } from '../helpers/mosquitto.ts';
import { bearer, createHouseholdTestApp } from '../household/household-harness.ts';
import { TestReceiver, householdSecretOf, signatureMatches } from '../webhooks/receiver.ts';

async function until<T>(what: string | (() => string), fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of DIALECTS) {
  test(`a Zigbee2MQTT contact on a real Mosquitto opens and closes the back door; a watch on it raises an event and a signed webhook (${dialect})`, async () => {
    const broker = await startMosquitto();
    const receiver = new TestReceiver();
    const hookUrl = await receiver.start();
    const t = await createHouseholdTestApp({
      dialect,
      config: { mqtt: { allowPrivate: true, publish: { url: `${broker.url}/vigil`, prefix: 'vigil', discoveryPrefix: 'homeassistant' } } },
    });
    const device = await mqtt.connectAsync(broker.url);
    const homeAssistant = await mqtt.connectAsync(broker.url);
    const seen: Array<{ topic: string; body: string; retain: boolean }> = [];
    homeAssistant.on('message', (topic, payload, packet) => seen.push({ topic, body: payload.toString(), retain: packet.retain }));
    await homeAssistant.subscribeAsync(['homeassistant/#', 'vigil/#']);
    try {
      t.ctx.sources.startLive(); // as the serving process does
      t.ctx.mqttPublisher!.start();
      await t.ctx.deliveryWorker.start();
      const key = await t.householdKey({ name: 'Sensor Home', mode: 'live' });
      const say = async (message: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
      const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: bearer(key) })).json();
      const hook = await t.app.inject({ method: 'POST', url: '/v1/webhooks', headers: bearer(key), payload: { url: `${hookUrl}/hook` } });
      assert.equal(hook.statusCode, 201, hook.body);

      const added = await say(`add the back door contact sensor at ${broker.url}/zigbee2mqtt/back_door in the back door`);
      assert.equal(added.actions[0]?.type, 'sensor.added', added.reply);
      const id = added.actions[0].id as string;
      await until('the sensor to be live', async () => {
        const home = await get('/v1/household');
        return (home.sensors as Array<{ id: string; status: string }>).find((s) => s.id === id && s.status === 'live');
      });
      const row = await t.ctx.database.db.selectFrom('streams').select(['source_type', 'config']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.source_type, 'mqtt');
      assert.equal(JSON.parse(row.config).sensor.preset, 'contact');

      const watched = await say('keep an eye on the back door until 11pm');
      assert.equal(watched.actions[0]?.type, 'watch.created', watched.reply);

      // events out: while the publisher is connected, Home Assistant sees every change (before that, only the last state)
      await until('the events-out publisher connected', async () => t.ctx.mqttPublisher!.stats().connected);
      // Zigbee2MQTT publishes the whole device state; contact false is an open door
      await device.publishAsync('zigbee2mqtt/back_door', JSON.stringify({ battery: 91, contact: false, linkquality: 120, voltage: 3000 }));
      const opened = await until('the door_open detection', async () => {
        const rows = await t.ctx.database.db.selectFrom('detections').select(['type', 'at']).where('stream_id', '=', id).execute();
        return rows.find((r) => r.type === 'door_open');
      });
      assert.ok(opened);
      const answer = await say('is the back door open?');
      assert.match(answer.reply, /back door is open \(since 12:00/i, answer.reply);

      const event = await until('the watch observation', async () => {
        const events = (await get('/v1/events?kind=observation')).data;
        return (events as Array<{ type: string; summary: string }>).find((e) => e.type === 'door_opened');
      });
      assert.match(event.summary, /back door was opened/i);
      await receiver.waitFor(1);
      const delivered = await until('the signed watch.observation webhook', async () => receiver.received.find((r) => r.body.event === 'watch.observation'));
      assert.ok(
        signatureMatches(householdSecretOf(key.key), delivered.raw, delivered.headers['x-service-signature']),
        "signed with the household's derived secret",
      );

      // the same state again is nothing; closing is door_closed
      await device.publishAsync('zigbee2mqtt/back_door', JSON.stringify({ battery: 91, contact: false, linkquality: 118 }));
      await t.clock.advance(60_000);
      await device.publishAsync('zigbee2mqtt/back_door', JSON.stringify({ battery: 90, contact: true, linkquality: 118 }));
      await until('the door_closed detection', async () => {
        const rows = await t.ctx.database.db.selectFrom('detections').select(['type']).where('stream_id', '=', id).execute();
        return rows.some((r) => r.type === 'door_closed') ? rows : null;
      });
      const rows = await t.ctx.database.db.selectFrom('detections').select(['type']).where('stream_id', '=', id).orderBy('at').execute();
      assert.deepEqual(
        rows.map((r) => r.type),
        ['door_open', 'door_closed'],
        'one detection per change of state',
      );
      const closed = await say('is the back door open?');
      assert.match(closed.reply, /back door is closed \(since 12:01/i, closed.reply);
      const live = t.ctx.sources.sensorState(id);
      assert.equal(live?.state, 'inactive');
      assert.equal(live?.battery, 90);

      // Home Assistant: the sensor's discovery config (retained), then its state ON and OFF
      const tenant = key.tenant_id;
      const config = await until('the discovery config', async () => seen.find((m) => m.topic === `homeassistant/binary_sensor/vigil_${id}/state/config`));
      const disc = JSON.parse(config.body);
      assert.equal(disc.device_class, 'door');
      assert.equal(disc.state_topic, `vigil/${tenant}/sensors/${id}/state`);
      assert.equal(disc.name, 'Back door contact sensor');
      const states = () => seen.filter((m) => m.topic === disc.state_topic).map((m) => JSON.parse(m.body).state);
      await until(
        () =>
          `the OFF state (publisher ${JSON.stringify(t.ctx.mqttPublisher!.stats())}, states ${JSON.stringify(states())}, topics ${JSON.stringify(seen.map((m) => m.topic))})`,
        async () => states().includes('OFF'),
      );
      assert.deepEqual(states(), ['ON', 'OFF']);
      assert.ok(
        seen.some((m) => m.topic === `vigil/${tenant}/detections/back_door/door_open`),
        'the detection went out',
      );
      const obs = seen.find((m) => m.topic === `vigil/${tenant}/events/watch.observation`);
      assert.ok(obs, 'the watch observation went out');
      assert.equal(JSON.parse(obs.body).event, 'watch.observation');
      assert.ok(
        seen.some((m) => m.topic.startsWith('homeassistant/sensor/vigil_scene_') && m.topic.endsWith('/people/config')),
        "scenes' counts are announced",
      );
      // a late subscriber (Home Assistant restarting) gets the discovery and the state from the broker
      const late = await mqtt.connectAsync(broker.url);
      const retained: string[] = [];
      late.on('message', (topic) => retained.push(topic));
      await late.subscribeAsync(['homeassistant/binary_sensor/#', disc.state_topic]);
      await until('the retained discovery and state', async () => retained.includes(disc.state_topic) && retained.includes(config.topic));
      await late.endAsync();

      // muted: not even subscribed; what the device says meanwhile is not taken in
      const muted = await say('mute the back door contact sensor');
      assert.equal(muted.actions[0]?.type, 'sensor.muted', muted.reply);
      assert.equal(t.ctx.sources.isLive(id), false, 'a muted sensor is unsubscribed');
      await device.publishAsync('zigbee2mqtt/back_door', JSON.stringify({ battery: 90, contact: false }));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal((await t.ctx.database.db.selectFrom('detections').select(['id']).where('stream_id', '=', id).execute()).length, 2);
    } finally {
      await device.endAsync();
      await homeAssistant.endAsync();
      await t.ctx.deliveryWorker.stop();
      await t.close();
      await receiver.stop();
      await broker.close();
    }
  });
}
