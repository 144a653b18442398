/**
 * Sensors over MQTT on the organization surface (docs/decisions.md, "Sensors over MQTT"): bad
 * source URLs and mappings are 400s naming the field; a running source drops and counts what it
 * cannot read and keeps running; a leak detection fires an alert rule; low battery and silence make
 * the stream offline with an event; a broker that goes away is `reconnecting` and comes back; a
 * dead broker at start does not stop the server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import { bearer, createTestApp } from '../helpers/harness.ts';
import { freePort, startMosquitto } from '../helpers/mosquitto.ts';
import { ManualClock } from '../../src/platform/time/clock.ts';
import { assertBrokerAllowed } from '../../src/org/streams/stream.service.ts';

async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('bad mqtt sources are 400s naming the field; a private broker needs VIGIL_MQTT_ALLOW_PRIVATE', async () => {
  const t = await createTestApp({ config: { mqtt: { allowPrivate: false, publish: null } } });
  try {
    const key = await t.orgKey({ mode: 'live' });
    const create = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Leak', source_type: 'mqtt', location: 'basement', ...payload },
      });
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ source_url: 'http://broker.example.com/zigbee2mqtt/leak', sensor: { preset: 'water_leak' } }, 'source_url', /mqtt:\/\/ or mqtts:\/\//],
      [{ source_url: 'mqtt://8.8.8.8:1883/zigbee2mqtt/+', sensor: { preset: 'water_leak' } }, 'source_url', /wildcard/],
      [{ source_url: 'mqtt://8.8.8.8:1883/zigbee2mqtt/#', sensor: { preset: 'water_leak' } }, 'source_url', /wildcard/],
      [{ source_url: 'mqtt://8.8.8.8:1883/', sensor: { preset: 'water_leak' } }, 'source_url', /topic/],
      [{ source_url: 'mqtt://8.8.8.8:1883/zigbee2mqtt/leak', sensor: { preset: 'flood' } }, 'sensor.preset', /unknown preset "flood"/],
      [{ source_url: 'mqtt://8.8.8.8:1883/zigbee2mqtt/leak' }, 'sensor', /preset/],
      [{ source_url: 'mqtt://8.8.8.8:1883/zigbee2mqtt/leak', sensor: { json_path: 'state..door', type: 'door_open' } }, 'sensor.json_path', /not a path/],
      [{ source_url: 'mqtt://8.8.8.8:1883/zigbee2mqtt/leak', sensor: { json_path: 'state.door', type: 'person' } }, 'sensor.type', /door_open/],
      [{ source_url: 'mqtt://192.168.1.5:1883/zigbee2mqtt/leak', sensor: { preset: 'water_leak' } }, 'source_url', /VIGIL_MQTT_ALLOW_PRIVATE/],
      [
        { source_url: 'mqtt://user:hunter2@127.0.0.1:1883/zigbee2mqtt/leak', sensor: { preset: 'water_leak' } },
        'source_url',
        /loopback|VIGIL_MQTT_ALLOW_PRIVATE/,
      ],
    ];
    for (const [payload, param, message] of cases) {
      const res = await create(payload);
      assert.equal(res.statusCode, 400, `${JSON.stringify(payload)}: ${res.body}`);
      assert.match(res.headers['content-type'] as string, /application\/problem\+json/);
      assert.equal(res.json().param, param, res.body);
      assert.match(res.json().detail, message);
      assert.doesNotMatch(res.body, /hunter2/, 'credentials are never echoed');
    }
    const rtsp = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'Cam', source_type: 'rtsp', source_url: 'rtsp://8.8.8.8/cam', location: 'lobby', sensor: { preset: 'contact' } },
    });
    assert.equal(rtsp.statusCode, 400);
    assert.equal(rtsp.json().param, 'sensor');
    // a host name is resolved, and refused when it points at a private address
    await assert.rejects(
      assertBrokerAllowed('mqtt://broker.home.arpa/zigbee2mqtt/leak', { allowPrivate: false, lookup: async () => [{ address: '10.0.0.7' }] }),
      /resolves to 10\.0\.0\.7/,
    );
    await assertBrokerAllowed('mqtt://broker.example.com/zigbee2mqtt/leak', { allowPrivate: false, lookup: async () => [{ address: '93.184.216.34' }] });
    const none = await t.app.inject({ url: '/v1/streams', headers: bearer(key) });
    assert.equal(none.json().data.length, 0, 'nothing half-written');
  } finally {
    await t.close();
  }
});

test('a running mqtt source drops and counts what it cannot read, fires alert rules, and reports battery, silence and the broker as status', async () => {
  const broker = await startMosquitto();
  const clock = new ManualClock('2026-11-21T12:00:00.000Z');
  const t = await createTestApp({
    clock,
    config: { mqtt: { allowPrivate: true, publish: null } },
    contextOptions: { mqttBackoff: { initialMs: 100, maxMs: 400 } },
  });
  const device = await mqtt.connectAsync(broker.url);
  try {
    t.ctx.sources.startLive();
    const key = await t.orgKey({ mode: 'live' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: {
        name: 'Basement leak',
        source_type: 'mqtt',
        source_url: `mqtt://user:hunter2@127.0.0.1:${broker.port}/zigbee2mqtt/basement_leak`,
        location: 'basement',
        sensor: { preset: 'water_leak', expected_interval_s: 60 },
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.equal(created.source_url, `mqtt://user:****@127.0.0.1:${broker.port}/zigbee2mqtt/basement_leak`, 'the password is masked');
    const id = created.id as string;
    const view = async () => (await t.app.inject({ url: `/v1/streams/${id}`, headers: bearer(key) })).json();
    await until('live', async () => (await view()).status === 'live');
    const rule = await t.app.inject({
      method: 'POST',
      url: '/v1/alert-rules',
      headers: bearer(key),
      payload: { name: 'Leak', condition: { type: 'water_leak' }, cooldown_s: 0 },
    });
    assert.equal(rule.statusCode, 201, rule.body);

    const topic = 'zigbee2mqtt/basement_leak';
    await device.publishAsync(topic, 'not json');
    await device.publishAsync(topic, JSON.stringify({ water_leak: 'yes', battery: 80 }));
    await device.publishAsync(topic, JSON.stringify({ battery: 80 }));
    await device.publishAsync(topic, '[1,2]');
    const counted = await until('the drops counted', async () => {
      const v = await view();
      return v.sensor.live.messages === 4 ? v : null;
    });
    assert.deepEqual(counted.sensor.live.dropped, { not_json: 2, missing_field: 1, wrong_type: 1, unknown_preset: 0, too_large: 0 });
    assert.equal(counted.status, 'live', 'the source keeps running');

    await device.publishAsync(topic, JSON.stringify({ water_leak: true, battery: 80 }));
    const alert = await until('the leak alert', async () => {
      const a = (await t.app.inject({ url: `/v1/alerts?rule_id=${rule.json().id}`, headers: bearer(key) })).json().data as Array<{ id: string }>;
      return a[0];
    });
    assert.ok(alert);
    const dets = await t.ctx.database.db.selectFrom('detections').select(['type']).where('stream_id', '=', id).execute();
    assert.deepEqual(
      dets.map((d) => d.type),
      ['water_leak'],
    );

    // battery low: offline, with a stream.status_changed in the audit trail
    await device.publishAsync(topic, JSON.stringify({ water_leak: false, battery: 7 }));
    const low = await until('battery low', async () => {
      const v = await view();
      return v.status === 'offline' ? v : null;
    });
    assert.match(low.error, /battery low: 7%/);
    const changes = async () =>
      (
        await t.ctx.database.db.selectFrom('audit_log').select(['data']).where('resource_id', '=', id).where('action', '=', 'stream.status_changed').execute()
      ).map((r) => JSON.parse(r.data as string).status);
    await until('the offline change recorded', async () => (await changes()).includes('offline'));
    await device.publishAsync(topic, JSON.stringify({ water_leak: false, battery: 95 }));
    await until('live again', async () => (await view()).status === 'live');

    // silent past its expected interval (60 s): offline, saying so
    await clock.advance(61_000);
    const silent = await until('silence', async () => {
      const v = await view();
      return v.status === 'offline' ? v : null;
    });
    assert.match(silent.error, /sent nothing for 60 s/);
    await device.publishAsync(topic, JSON.stringify({ water_leak: false, battery: 95 }));
    await until('live after a message', async () => (await view()).status === 'live');

    // the broker goes away: reconnecting (never a crash), then live again when it is back
    await broker.stop();
    const down = await until('reconnecting', async () => {
      const v = await view();
      return v.status === 'reconnecting' ? v : null;
    });
    assert.match(down.error, new RegExp(`127\\.0\\.0\\.1:${broker.port}`));
    assert.doesNotMatch(down.error, /hunter2/);
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
    await broker.start();
    await until('live after the broker is back', async () => (await view()).status === 'live');
    await device.endAsync().catch(() => undefined);
    const again = await mqtt.connectAsync(broker.url);
    await again.publishAsync(topic, JSON.stringify({ water_leak: true, battery: 95 }));
    await until(
      'a detection after the reconnection',
      async () => (await t.ctx.database.db.selectFrom('detections').select(['type']).where('stream_id', '=', id).execute()).length === 2,
    );
    await again.endAsync();
  } finally {
    await device.endAsync().catch(() => undefined);
    await t.close();
    await broker.close();
  }
});

test('a dead broker at start does not stop the server: the sensor is reconnecting, events out retry in the background', async () => {
  const port = await freePort(); // nothing listens here
  const t = await createTestApp({
    config: {
      runSources: true,
      mqtt: { allowPrivate: true, publish: { url: `mqtt://127.0.0.1:${port}/vigil`, prefix: 'vigil', discoveryPrefix: 'homeassistant' } },
    },
    contextOptions: { mqttBackoff: { initialMs: 100, maxMs: 400 } },
  });
  try {
    const key = await t.orgKey({ mode: 'live' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: {
        name: 'Front door',
        source_type: 'mqtt',
        source_url: `mqtt://127.0.0.1:${port}/zigbee2mqtt/front_door`,
        location: 'entrance',
        sensor: { preset: 'contact' },
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    await t.ctx.start(); // the server's start, as main.ts runs it
    const v = await until('reconnecting', async () => {
      const s = (await t.app.inject({ url: `/v1/streams/${res.json().id}`, headers: bearer(key) })).json();
      return s.status === 'reconnecting' ? s : null;
    });
    assert.match(v.error, /ECONNREFUSED|unreachable/);
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
    assert.equal(t.ctx.mqttPublisher?.stats().connected, false);
  } finally {
    await t.close();
  }
});
