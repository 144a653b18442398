/**
 * Sensors over MQTT, end to end (docs/decisions.md, "Sensors over MQTT"): a Zigbee2MQTT-shaped
 * contact sensor published to a real Mosquitto opens and closes the household's back door in
 * Vigil; a watch on it raises an event and a signed webhook; "is the back door open?" answers
 * from the real state with its time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import { DIALECTS } from '../helpers/harness.ts';
import { startMosquitto } from '../helpers/mosquitto.ts';
import { bearer, createHouseholdTestApp } from '../household/household-harness.ts';
import { TestReceiver, householdSecretOf, signatureMatches } from '../webhooks/receiver.ts';

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of DIALECTS) {
  test(`a Zigbee2MQTT contact on a real Mosquitto opens and closes the back door; a watch on it raises an event and a signed webhook (${dialect})`, async () => {
    const broker = await startMosquitto();
    const receiver = new TestReceiver();
    const hookUrl = await receiver.start();
    const t = await createHouseholdTestApp({ dialect, config: { mqtt: { allowPrivate: true, publish: null } } });
    const device = await mqtt.connectAsync(broker.url);
    try {
      t.ctx.sources.startLive(); // as the serving process does
      await t.ctx.deliveryWorker.start();
      const key = await t.householdKey({ name: 'Sensor Home', mode: 'live' });
      const say = async (message: string) => (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
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
      assert.ok(signatureMatches(householdSecretOf(key.key), delivered.raw, delivered.headers['x-service-signature']), 'signed with the household\'s derived secret');

      // the same state again is nothing; closing is door_closed
      await device.publishAsync('zigbee2mqtt/back_door', JSON.stringify({ battery: 91, contact: false, linkquality: 118 }));
      await t.clock.advance(60_000);
      await device.publishAsync('zigbee2mqtt/back_door', JSON.stringify({ battery: 90, contact: true, linkquality: 118 }));
      await until('the door_closed detection', async () => {
        const rows = await t.ctx.database.db.selectFrom('detections').select(['type']).where('stream_id', '=', id).execute();
        return rows.some((r) => r.type === 'door_closed') ? rows : null;
      });
      const rows = await t.ctx.database.db.selectFrom('detections').select(['type']).where('stream_id', '=', id).orderBy('at').execute();
      assert.deepEqual(rows.map((r) => r.type), ['door_open', 'door_closed'], 'one detection per change of state');
      const closed = await say('is the back door open?');
      assert.match(closed.reply, /back door is closed \(since 12:01/i, closed.reply);
      const live = t.ctx.sources.sensorState(id);
      assert.equal(live?.state, 'inactive');
      assert.equal(live?.battery, 90);
    } finally {
      await device.endAsync();
      await t.ctx.deliveryWorker.stop();
      await t.close();
      await receiver.stop();
      await broker.close();
    }
  });
}
