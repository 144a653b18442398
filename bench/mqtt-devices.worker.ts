/**
 * The devices of bench/mqtt.bench.ts, in their own thread so that publishing is never held up by
 * Vigil's event loop (real sensors are separate devices): each sensor sends once a second at its
 * own phase in the second (a fixed pseudo-random offset, as devices powered on at different times
 * do), so the broker sees a steady ~1,000 messages a second, not a burst. The time each message
 * left is written to a shared array (absolute milliseconds: timeOrigin + now), read by the
 * measuring thread when the message arrives.
 */
import { parentPort, workerData } from 'node:worker_threads';
import mqtt from 'mqtt';

const { url, sensors, topicPrefix, sentAt: shared } = workerData as { url: string; sensors: number; topicPrefix: string; sentAt: SharedArrayBuffer };
const sentAt = new Float64Array(shared);
const abs = () => performance.timeOrigin + performance.now();

// mulberry32: the same phases every run
let seed = 0x5eed;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const phase = Array.from({ length: sensors }, () => random() * 1000);
const order = [...phase.keys()].sort((a, b) => phase[a] - phase[b]);

const device = await mqtt.connectAsync(url);
const state = new Array<boolean>(sensors).fill(true);
const lateMs: number[] = [];
let sent = 0;
let stopped = false;
const start = abs() + 50;
let second = 0;
let next = 0; // index into order

function tick(): void {
  if (stopped) return;
  const now = abs();
  for (;;) {
    const i = order[next];
    const due = start + second * 1000 + phase[i];
    if (due > now) {
      setTimeout(tick, Math.max(0, Math.floor(due - abs())));
      return;
    }
    state[i] = !state[i];
    const t = abs();
    sentAt[i] = t;
    lateMs.push(t - due);
    sent++;
    device.publish(`${topicPrefix}${i}`, JSON.stringify({ battery: 90, contact: state[i], linkquality: 120, voltage: 3000 }));
    next++;
    if (next === sensors) {
      next = 0;
      second++;
    }
  }
}
setTimeout(tick, 50);

// void: an event listener's promise has nobody to return to (a failure is an unhandled rejection)
parentPort!.on(
  'message',
  (m: string) =>
    void (async () => {
      if (m !== 'stop') return;
      stopped = true;
      await device.endAsync();
      const sorted = lateMs.sort((a, b) => a - b);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
      parentPort!.postMessage({ sent, late_ms: { p50: at(50), p95: at(95), p99: at(99), max: sorted[sorted.length - 1] ?? 0 } });
    })(),
);
parentPort!.postMessage({ type: 'ready' });
