import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../src/context.ts';
import type { DetectionInput } from '../src/platform/kinds/index.ts';
import { ManualClock } from '../src/platform/time/clock.ts';
import { startPushService, type PushService } from '../tests/helpers/push-service.ts';
import { figure, onSqliteThenPostgres, percentile, writeResult, type Figure } from './machine.ts';

/**
 * Notifications (docs/decisions.md, "Notifications through the outbox"), with the tests' loopback
 * Web Push service (HTTPS, VAPID check, aes128gcm decryption in this process):
 *
 * 1. Detection → push received: an anomalous detection ingested through the real pipeline opens an
 *    incident whose `incident.created` goes to one operator device; the time from `ingest` to the
 *    push service having decrypted the push, p50/p95 over DETECTIONS detections (each at its own
 *    location, so each opens its own incident). Target p95 ≤ 1 s.
 * 2. Fan-out: DEVICES subscribed devices of one organization told of one incident; time from the
 *    detection to the last push received. Target ≤ 10 s. SQLite and PostgreSQL.
 *
 * The push service decrypts in the same process as Vigil, so its CPU competes with the sender's:
 * the figures include it.
 */
const DETECTIONS = Number(process.env.BENCH_NOTIFY_DETECTIONS ?? 60);
const DEVICES = Number(process.env.BENCH_NOTIFY_DEVICES ?? 1000);
const FRIDAY_LATE = Date.parse('2026-11-20T23:00:00.000Z');

async function withApp<T>(databaseUrl: string | null, push: PushService, fn: (ctx: VigilContext) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-notify-'));
  const ctx = await createContext(
    loadConfig(
      { dataDir, databaseUrl, runSources: false, seedDemo: false, webhookAllowPrivate: true, outboundCa: push.ca, publicBaseUrl: 'https://vigil.example.com' },
      {},
    ),
    { clock: new ManualClock(FRIDAY_LATE) },
  );
  await ctx.deliveryWorker.start();
  try {
    return await fn(ctx);
  } finally {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A sandbox stream at its own location (its own scene), for a detection there to open its own incident. */
async function streamAt(ctx: VigilContext, principal: Awaited<ReturnType<VigilContext['keys']['authenticate']>>, location: string) {
  const s = await ctx.streams.create(
    principal,
    { keyId: principal.keyId },
    { name: `${location} cam`, source_type: 'sandbox', source_url: `sandbox://${location}?scenario=lobby&seed=1`, location },
  );
  return { id: s.id, scene_id: s.scene_id };
}

async function runOnce(storage: 'sqlite' | 'postgres', databaseUrl: string | null) {
  const push = await startPushService();
  try {
    return await withApp(databaseUrl, push, async (ctx) => {
      const key = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Bench', mode: 'live' });
      const principal = await ctx.keys.authenticate(key.key);
      const actor = { keyId: key.id };
      const desk = push.device('desk');
      await ctx.notifications.create(principal, actor, { channel: 'push', endpoint: desk.endpoint, keys: desk.keys, events: ['incident.created'] });
      const streams = [];
      for (let i = 0; i < DETECTIONS; i++) streams.push(await streamAt(ctx, principal, `bench_${i}`));
      // 1. detection → push received
      const ms: number[] = [];
      for (let i = 0; i < DETECTIONS; i++) {
        const before = push.received.length;
        const t0 = performance.now();
        await ctx.pipeline.ingest({ id: streams[i].id, tenant_id: key.tenant_id, scene_id: streams[i].scene_id, location: `bench_${i}` }, [
          { type: 'person', subtype: 'unrecognized', confidence: 0.9, track_id: `t${i}`, at: FRIDAY_LATE } as DetectionInput,
        ]);
        const got = await push.waitFor(before + 1, 30_000);
        ms.push(got[before].receivedAt - t0);
      }
      ms.sort((a, b) => a - b);
      // 2. fan-out to DEVICES devices
      const fan = await ctx.keys.createKey({ tenantKind: 'organization', tenantName: 'Fan-out', mode: 'live' });
      const fanPrincipal = await ctx.keys.authenticate(fan.key);
      for (let i = 0; i < DEVICES; i++) {
        const d = push.device(`fan${i}`);
        await ctx.notifications.create(fanPrincipal, { keyId: fan.id }, { channel: 'push', endpoint: d.endpoint, keys: d.keys, events: ['incident.created'] });
      }
      const fanStream = await streamAt(ctx, fanPrincipal, 'fan_lobby');
      const before = push.received.length;
      const t0 = performance.now();
      await ctx.pipeline.ingest({ id: fanStream.id, tenant_id: fan.tenant_id, scene_id: fanStream.scene_id, location: 'fan_lobby' }, [
        { type: 'person', subtype: 'unrecognized', confidence: 0.9, track_id: 'fan', at: FRIDAY_LATE } as DetectionInput,
      ]);
      await push.waitFor(before + DEVICES, 120_000);
      const fanSeconds = (push.received[before + DEVICES - 1].receivedAt - t0) / 1000;
      if (push.errors.length) throw new Error(`push service errors: ${push.errors.slice(0, 3).join('; ')}`);
      return {
        storage,
        detections: ms.length,
        detection_to_push_ms: { p50: +percentile(ms, 50).toFixed(1), p95: +percentile(ms, 95).toFixed(1), max: +ms[ms.length - 1].toFixed(1) },
        devices: DEVICES,
        fan_out_seconds: +fanSeconds.toFixed(2),
      };
    });
  } finally {
    await push.close();
  }
}

const results = await onSqliteThenPostgres('bench_notify', runOnce);
const figures: Figure[] = [];
for (const r of results) {
  const label = r.storage === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  console.log(
    `notifications ${r.storage.padEnd(8)}: detection→push p50 ${r.detection_to_push_ms.p50} ms p95 ${r.detection_to_push_ms.p95} ms; ${r.devices} devices in ${r.fan_out_seconds} s`,
  );
  figures.push(
    figure(
      `detection → push received p95 (${r.detections} detections), ${label}`,
      r.detection_to_push_ms.p95,
      'ms',
      'lower',
      { none: 'no raw limit measured; the target is 1 s' },
      { value: 1000 },
    ),
    figure(
      `${r.devices} devices notified of one incident, ${label}`,
      r.fan_out_seconds,
      's',
      'lower',
      { none: 'no raw limit measured; the target is 10 s' },
      { value: 10 },
    ),
  );
}
writeResult('notifications', 'notifications', figures, {
  results,
  notes: [
    'the loopback push service verifies VAPID and decrypts aes128gcm in the bench process: its CPU is counted',
    'PostgreSQL is the throwaway test server (fsync=off, synchronous_commit=off)',
  ],
});
