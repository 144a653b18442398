/**
 * Sensors over MQTT (docs/decisions.md, "Sensors over MQTT"): from an MQTT message to the
 * durable detection, p50/p95, with 1,000 sensors each sending once a second (target p95 ≤ 10 ms).
 * A real Mosquitto on loopback, real SQLite (WAL), 1,000 `mqtt` streams created through the API
 * (Zigbee2MQTT contact preset); every message flips its contact, so every message is a change of
 * state and becomes a detection (door_open / door_closed) through the group-committed pipeline.
 * "Durable" is when the pipeline's ingest promise resolves (after the commit).
 *
 * The limit, measured in the same run on the same broker and the same messages: a raw `mqtt`
 * subscriber on the same topics, its receive time. Vigil cannot beat the broker's delivery; the
 * ratio is what reading, mapping and committing add.
 *   nice -n 10 node --import tsx bench/mqtt.bench.ts     (BENCH_MQTT_SENSORS, BENCH_MQTT_SECONDS)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext } from '../src/context.ts';
import { buildApp } from '../src/app.ts';
import { startMosquitto } from '../tests/helpers/mosquitto.ts';
import { figure, percentile, writeResult } from './machine.ts';

const SENSORS = Number(process.env.BENCH_MQTT_SENSORS ?? 1000);
const SECONDS = Number(process.env.BENCH_MQTT_SECONDS ?? 15);
const WARMUP_S = 3;
const TARGET_P95_MS = 10;

const broker = await startMosquitto();
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-mqtt-'));
const config = loadConfig({ runSources: false, seedDemo: false, dataDir, databaseUrl: null, publicBaseUrl: 'http://vigil.test', mqtt: { allowPrivate: true, publish: null } }, {});
const ctx = await createContext(config);
const app = await buildApp(ctx);
ctx.sources.startLive();
const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live', capabilities: 'all', rateLimitPerMinute: 10_000_000 });

const topicOf = (i: number) => `bench/sensor_${i}`;
const streamTopic = new Map<string, number>();
const t0 = performance.now();
for (let i = 0; i < SENSORS; i++) {
  const res = await app.inject({
    method: 'POST', url: '/v1/streams', headers: { authorization: `Bearer ${key.key}` },
    payload: { name: `Door ${i}`, source_type: 'mqtt', source_url: `${broker.url}/${topicOf(i)}`, location: `room_${i % 50}`, sensor: { preset: 'contact', expected_interval_s: 600 } },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  streamTopic.set(res.json().id, i);
}
const createS = (performance.now() - t0) / 1000;
console.log(`created ${SENSORS} mqtt streams in ${createS.toFixed(1)} s`);
await new Promise((r) => setTimeout(r, 2000)); // subscriptions settle

// when each sensor's latest message was sent (each sends once a second, latency ≪ 1 s)
const sentAt = new Float64Array(SENSORS);
let measuring = false;
const vigilMs: number[] = [];
const rawMs: number[] = [];

// Vigil: the pipeline's ingest resolves once the detection is committed
const pipeline = ctx.pipeline;
const ingest = pipeline.ingest.bind(pipeline);
pipeline.ingest = (ref, inputs) => ingest(ref, inputs).then((records) => {
  const i = streamTopic.get(ref.id);
  if (measuring && i !== undefined) vigilMs.push(performance.now() - sentAt[i]);
  return records;
});

// the limit: a raw subscriber on the same broker and topics
const raw = await mqtt.connectAsync(broker.url);
raw.on('message', (topic) => {
  if (measuring) rawMs.push(performance.now() - sentAt[Number(topic.slice('bench/sensor_'.length))]);
});
await raw.subscribeAsync('bench/#');

const device = await mqtt.connectAsync(broker.url);
const state = new Array<boolean>(SENSORS).fill(true);
// 1,000 sensors at 1 msg/s: 10 messages every 10 ms, each sensor once per second
const perTick = Math.max(1, Math.round(SENSORS / 100));
let next = 0;
const timer = setInterval(() => {
  for (let k = 0; k < perTick; k++) {
    const i = next;
    next = (next + 1) % SENSORS;
    state[i] = !state[i];
    sentAt[i] = performance.now();
    device.publish(topicOf(i), JSON.stringify({ battery: 90, contact: state[i], linkquality: 120, voltage: 3000 }));
  }
}, 10);
await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
measuring = true;
const c0 = process.cpuUsage();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
measuring = false;
const cpu = process.cpuUsage(c0);
clearInterval(timer);
await ctx.pipeline.drain();

const sorted = (a: number[]) => [...a].sort((x, y) => x - y);
const v = sorted(vigilMs);
const r = sorted(rawMs);
const vP95 = percentile(v, 95);
const rP95 = percentile(r, 95);
const stats = ctx.sources.sensorState([...streamTopic.keys()][0]);
console.log(`vigil: ${v.length} detections, p50 ${percentile(v, 50).toFixed(2)} ms, p95 ${vP95.toFixed(2)} ms; raw: ${r.length} messages, p50 ${percentile(r, 50).toFixed(2)} ms, p95 ${rP95.toFixed(2)} ms`);
writeResult('mqtt', 'mqtt message to durable detection', [
  figure('mqtt message → durable detection p95', vP95, 'ms', 'lower', { name: 'raw mqtt subscriber receive p95 (same broker, same messages)', value: rP95, unit: 'ms' }, { value: TARGET_P95_MS }),
  figure('mqtt message → durable detection p50', percentile(v, 50), 'ms', 'lower', { name: 'raw mqtt subscriber receive p50', value: percentile(r, 50), unit: 'ms' }),
], {
  sensors: SENSORS, seconds: SECONDS, messages_per_s: SENSORS, detections: v.length, raw_messages: r.length,
  vigil_ms: { p50: percentile(v, 50), p95: vP95, p99: percentile(v, 99), max: v[v.length - 1] },
  raw_ms: { p50: percentile(r, 50), p95: rP95, p99: percentile(r, 99), max: r[r.length - 1] },
  process_cpu_s: (cpu.user + cpu.system) / 1e6, create_streams_s: createS, first_stream_dropped: stats?.dropped,
});

await device.endAsync();
await raw.endAsync();
await app.close();
await ctx.close();
await broker.close();
rmSync(dataDir, { recursive: true, force: true });
