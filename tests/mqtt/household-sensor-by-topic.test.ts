/**
 * A household adds a real sensor by its topic alone (docs/decisions.md, "A household's default
 * broker"): without a default broker the agent asks for it and adds nothing; the broker set
 * through PUT /v1/household/mqtt-broker (400 naming `url` for what is not a broker address,
 * audited without credentials), "add the back door sensor, it's zigbee2mqtt/back_door" adds a
 * Zigbee2MQTT contact on it, and a message published to the real Mosquitto opens the door in Vigil.
 * The install's default (VIGIL_MQTT_DEFAULT_BROKER) applies when the household has none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import { DIALECTS } from '../helpers/harness.ts';
import { startMosquitto } from '../helpers/mosquitto.ts';
import { bearer, createHouseholdTestApp } from '../household/household-harness.ts';
import { readMqttConfig } from '../../src/platform/config/mqtt-config.ts';

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of DIALECTS) {
  test(`a sensor added by topic on the household's default broker opens the back door in Vigil (${dialect})`, async () => {
    const broker = await startMosquitto();
    const t = await createHouseholdTestApp({ dialect, config: { mqtt: { allowPrivate: true, publish: null } } });
    const device = await mqtt.connectAsync(broker.url);
    try {
      t.ctx.sources.startLive();
      const key = await t.householdKey({ name: 'Topic Home', mode: 'live' });
      const say = async (message: string) =>
        (await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } })).json();
      const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: bearer(key) })).json();
      const put = (url: unknown) => t.app.inject({ method: 'PUT', url: '/v1/household/mqtt-broker', headers: bearer(key), payload: { url } });

      // no default broker: a question, nothing added
      assert.deepEqual(await get('/v1/household/mqtt-broker'), { object: 'mqtt_broker', url: null, source: null, has_credentials: false });
      const asked = await say("add the back door sensor, it's zigbee2mqtt/back_door");
      assert.deepEqual(asked.actions, []);
      assert.match(asked.reply, /MQTT broker's address/);
      assert.equal((await get('/v1/household')).sensors.length, 0);

      // bad broker addresses: 400 naming url, nothing stored
      for (const bad of ['http://127.0.0.1:1883', `${broker.url}/zigbee2mqtt`, 'not a url', `${broker.url}/#`]) {
        const res = await put(bad);
        assert.equal(res.statusCode, 400, `${bad}: ${res.body}`);
        assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
        assert.equal(res.json().errors?.[0]?.param ?? res.json().param, 'url', res.body);
      }
      assert.equal((await put(42)).statusCode, 400);
      assert.equal((await get('/v1/household/mqtt-broker')).url, null);

      // the household's broker, with credentials that are never shown
      const withCreds = broker.url.replace('mqtt://', 'mqtt://home:secret@');
      const set = await put(withCreds);
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json(), { object: 'mqtt_broker', url: broker.url, source: 'household', has_credentials: true });
      assert.doesNotMatch(set.body, /secret/);
      const audit = await t.ctx.database.db.selectFrom('audit_log').select(['data']).where('action', '=', 'household.mqtt_broker_set').execute();
      assert.equal(audit.length, 1);
      assert.doesNotMatch(audit[0]!.data as string, /secret/);
      assert.equal(JSON.parse(audit[0]!.data as string).after, broker.url);
      // mosquitto in the tests takes anonymous clients, so the credentials do not stop the sensor
      const added = await say("add the back door sensor, it's zigbee2mqtt/back_door");
      assert.equal(added.actions[0]?.type, 'sensor.added', added.reply);
      assert.match(
        added.reply,
        /back door sensor in the back door: a door or window contact reading the Zigbee2MQTT topic zigbee2mqtt\/back_door on mqtt:\/\/127\.0\.0\.1:\d+\./i,
      );
      assert.doesNotMatch(JSON.stringify(added), /secret/);
      const id = added.actions[0].id as string;
      const row = await t.ctx.database.db.selectFrom('streams').select(['source_type', 'config']).where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.source_type, 'mqtt');
      assert.equal(JSON.parse(row.config).sensor.preset, 'contact');
      await until('the sensor to be live', async () =>
        (await get('/v1/household')).sensors.find((s: { id: string; status: string }) => s.id === id && s.status === 'live'),
      );

      // the device says the door is open: a door_open detection, and the agent knows it
      await device.publishAsync('zigbee2mqtt/back_door', JSON.stringify({ battery: 91, contact: false, linkquality: 120 }));
      await until('the door_open detection', async () =>
        (await t.ctx.database.db.selectFrom('detections').select(['type']).where('stream_id', '=', id).execute()).find((r) => r.type === 'door_open'),
      );
      const answer = await say('is the back door open?');
      assert.match(answer.reply, /back door is open/i, answer.reply);

      // a wildcard topic is asked about, even with a broker
      const wild = await say('add the garden motion sensor on zigbee2mqtt/#');
      assert.deepEqual(wild.actions, []);
      assert.match(wild.reply, /wildcard/);

      // cleared: the household has no broker again
      const cleared = await put(null);
      assert.deepEqual(cleared.json(), { object: 'mqtt_broker', url: null, source: null, has_credentials: false });
    } finally {
      await device.endAsync();
      await t.close();
      await broker.close();
    }
  });
}

test("the install's default broker (VIGIL_MQTT_DEFAULT_BROKER) applies when the household has none", async () => {
  assert.equal(readMqttConfig({ VIGIL_MQTT_DEFAULT_BROKER: 'mqtt://10.0.0.2:1883/' }, () => false).defaultBroker, 'mqtt://10.0.0.2:1883');
  assert.throws(() => readMqttConfig({ VIGIL_MQTT_DEFAULT_BROKER: 'mqtt://10.0.0.2:1883/zigbee2mqtt' }, () => false), /VIGIL_MQTT_DEFAULT_BROKER/);
  assert.throws(() => readMqttConfig({ VIGIL_MQTT_DEFAULT_BROKER: 'http://10.0.0.2' }, () => false), /VIGIL_MQTT_DEFAULT_BROKER/);
  const t = await createHouseholdTestApp({
    dialect: 'sqlite',
    config: { mqtt: { allowPrivate: true, publish: null, defaultBroker: 'mqtt://u:p@127.0.0.1:1' } },
  });
  try {
    const key = await t.householdKey({ name: 'Install Home', mode: 'live' });
    const res = await t.app.inject({ method: 'GET', url: '/v1/household/mqtt-broker', headers: bearer(key) });
    assert.deepEqual(res.json(), { object: 'mqtt_broker', url: 'mqtt://127.0.0.1:1', source: 'install', has_credentials: true });
    const reply = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/conversations',
        headers: bearer(key),
        payload: { message: 'add the hallway motion sensor on topic zigbee2mqtt/hall_pir' },
      })
    ).json();
    assert.equal(reply.actions[0]?.type, 'sensor.added', reply.reply);
    const row = await t.ctx.database.db.selectFrom('streams').select(['source_url', 'config']).where('id', '=', reply.actions[0].id).executeTakeFirstOrThrow();
    assert.equal(JSON.parse(row.config).sensor.preset, 'occupancy');
    assert.match(row.source_url, /127\.0\.0\.1:1\/zigbee2mqtt\/hall_pir$/);
    // a member key may read the broker but not set it
    const member = await t.ctx.keys.createKey({
      tenantKind: 'household',
      tenantName: 'Member Home',
      mode: 'live',
      role: 'member',
      rateLimitPerMinute: 100_000,
    });
    const refused = await t.app.inject({ method: 'PUT', url: '/v1/household/mqtt-broker', headers: bearer(member), payload: { url: 'mqtt://127.0.0.1:1883' } });
    assert.equal(refused.statusCode, 403, refused.body);
    assert.match(refused.headers['content-type'] as string, /application\/problem\+json/);
  } finally {
    await t.close();
  }
});
