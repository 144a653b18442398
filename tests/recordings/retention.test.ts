import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { DIALECTS, createTestApp, type TestApp } from '../helpers/harness.ts';
import { loadConfig, type RecordingConfig } from '../../src/platform/config/index.ts';
import { RecordingService } from '../../src/org/recordings/index.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import type { IngestGate } from '../../src/org/pipeline/index.ts';
import { toIso } from '../../src/platform/time/index.ts';

// Retention (VIGIL_RECORDINGS_DAYS), the disk quota and evidence holds, on both databases; the
// recordings directory unwritable, deleted or short of space; muted cameras not recorded.
const DAY = 86_400_000;
const defaults: RecordingConfig = loadConfig({}, {}).recordings;

for (const dialect of DIALECTS) {
  describe(`recordings retention (${dialect})`, () => {
    let t: TestApp;
    let root: string;
    let tenant: string;
    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
      const key = await t.orgKey();
      tenant = key.tenant_id;
      // an operator's receiver of recording.storage_low (events are kept for subscribers)
      const hook = await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: { authorization: `Bearer ${key.key}` },
        payload: { url: 'http://127.0.0.1:9/storage', events: ['recording.storage_low'] },
      });
      assert.equal(hook.statusCode, 201, hook.body);
      root = mkdtempSync(join(tmpdir(), 'vigil-retention-'));
    });
    after(async () => {
      await t.close();
      rmSync(root, { recursive: true, force: true });
    });

    const service = (config: Partial<RecordingConfig>, gate?: IngestGate) =>
      new RecordingService({
        database: t.ctx.database,
        clock: t.ctx.clock,
        audit: t.ctx.audit,
        config: { ...defaults, dir: root, ...config },
        dataDir: root,
        nodeId: 'local',
        ffmpegPath: resolveFfmpegPath,
        webhooks: t.ctx.webhooks,
        gate,
      });

    /** a sealed 100 kB segment of a stream at a time */
    async function segment(s: RecordingService, streamId: string, startAt: number): Promise<string> {
      const path = join(tenant, streamId, `${startAt}.mp4`);
      mkdirSync(join(root, tenant, streamId), { recursive: true });
      const bytes = randomBytes(100_000);
      writeFileSync(join(root, path), bytes);
      await s.seal({
        tenantId: tenant,
        streamId,
        kind: 'video',
        startAt,
        endAt: startAt + 10_000,
        path,
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
        codec: 'h264',
      });
      return path;
    }

    async function incident(id: string, streamId: string, createdAt: number, status: string, closedAt: number | null) {
      await t.ctx.database.db
        .insertInto('incidents')
        .values({
          id,
          tenant_id: tenant,
          stream_id: streamId,
          scene_id: 'scene_x',
          location: 'lobby',
          title: 'held',
          severity: 'high',
          status: status as 'open',
          source: 'manual',
          last_activity_at: createdAt,
          acknowledged_at: null,
          closed_at: closedAt === null ? null : toIso(closedAt),
          created_at: toIso(createdAt),
          updated_at: toIso(createdAt),
        })
        .execute();
    }

    const rows = async (streamId: string) =>
      (await t.ctx.database.db.selectFrom('recording_segments').select(['start_at']).where('stream_id', '=', streamId).orderBy('start_at').execute()).map((r) =>
        Number(r.start_at),
      );

    test('segments older than VIGIL_RECORDINGS_DAYS go oldest first, except those an open incident or a legal hold keeps', async () => {
      const s = service({ days: 7, holdDays: 30 });
      const now = Date.now();
      const old = now - 10 * DAY;
      const oldPath = await segment(s, 'stream_a', old);
      await segment(s, 'stream_a', old + 10_000);
      const recent = await segment(s, 'stream_a', now - 3600_000);
      // stream_b: an open incident 10 days ago holds the segments around it; one outside its window goes
      await incident('incident_open', 'stream_b', old + 20_000, 'open', null);
      await segment(s, 'stream_b', old + 15_000);
      await segment(s, 'stream_b', old - 600_000);
      // stream_c: resolved 40 days ago but under a legal hold
      await incident('incident_held', 'stream_c', now - 40 * DAY, 'resolved', now - 40 * DAY);
      await segment(s, 'stream_c', now - 40 * DAY);
      const principal = { tenantId: tenant, tenantKind: 'organization', locations: null } as never;
      await s.setHold(principal, { keyId: null, operator: 'legal' }, 'incident_held', { reason: 'subpoena 42' });

      const out = await s.applyRetention();
      assert.equal(out.deleted, 3);
      assert.deepEqual(await rows('stream_a'), [now - 3600_000]);
      assert.equal(existsSync(join(root, oldPath)), false, 'the file went with its row');
      assert.equal(existsSync(join(root, recent)), true);
      assert.deepEqual(await rows('stream_b'), [old + 15_000], 'the open incident keeps its window');
      assert.deepEqual(await rows('stream_c'), [now - 40 * DAY], 'the legal hold keeps it');

      // released: kept VIGIL_RECORDINGS_HOLD_DAYS more; with 0 days it goes at the next pass
      await s.releaseHold(principal, { keyId: null, operator: 'legal' }, 'incident_held');
      assert.equal((await s.applyRetention()).deleted, 0);
      assert.equal((await service({ days: 7, holdDays: 0 }).applyRetention()).deleted, 1);
      assert.deepEqual(await rows('stream_c'), []);
      // the hold and its release are audited
      const actions = (await t.ctx.database.db.selectFrom('audit_log').select('action').where('tenant_id', '=', tenant).execute()).map((r) => r.action);
      assert.ok(actions.includes('incident.legal_hold_set') && actions.includes('incident.legal_hold_released'));
    });

    test('the disk quota deletes the oldest segments until the recordings fit, still sparing held ones', async () => {
      const s = service({ days: 30, holdDays: 30 });
      const now = Date.now();
      for (let i = 0; i < 5; i++) await segment(s, 'stream_q', now - 5 * 3600_000 + i * 10_000);
      const total = Number(
        (
          await t.ctx.database.db
            .selectFrom('recording_segments')
            .select((eb) => eb.fn.sum<number>('bytes').as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      // room for all but 250 kB: three 100 kB segments go, oldest first, except stream_b's held one (older)
      const out = await service({ days: 30, holdDays: 30, quotaBytes: total - 250_000 }).applyRetention();
      assert.equal(out.deleted, 3);
      assert.deepEqual(await rows('stream_q'), [now - 5 * 3600_000 + 30_000, now - 5 * 3600_000 + 40_000]);
      assert.equal((await rows('stream_b')).length, 1, 'the open incident still holds its segment');
    });

    test('an unwritable or deleted directory and low storage are clear reasons, never a crash; recording resumes by itself', async () => {
      const file = join(root, 'a-file');
      writeFileSync(file, 'x');
      const broken = new RecordingService({
        database: t.ctx.database,
        clock: t.ctx.clock,
        audit: t.ctx.audit,
        config: { ...defaults, dir: join(file, 'recordings') },
        dataDir: root,
        nodeId: 'local',
        ffmpegPath: resolveFfmpegPath,
        webhooks: t.ctx.webhooks,
      });
      await broken.start(); // logs, does not throw
      assert.match(broken.blocked(true) ?? '', /is not writable \(ENOTDIR\); set VIGIL_RECORDINGS_DIR/);
      assert.equal(broken.recorder.open({ tenantId: tenant, streamId: 'stream_x' }, 'copy-h264'), null, 'decoding goes on without the second output');

      const gone = join(root, 'deleted-later');
      const s = service({ dir: gone });
      assert.equal(s.blocked(true), null);
      rmSync(gone, { recursive: true, force: true });
      assert.equal(s.blocked(true), null, 'a deleted directory is made again');
      assert.equal(existsSync(gone), true);

      const full = service({ minFreeBytes: Number.MAX_SAFE_INTEGER });
      assert.match(full.blocked(true) ?? '', /^storage low: \d+ MiB free/);
      await full.reportBlocked(tenant, 'stream_a');
      await full.reportBlocked(tenant, 'stream_a'); // once per 15 minutes per tenant
      const events = await t.ctx.database.db
        .selectFrom('webhook_events')
        .select(['kind', 'body'])
        .where('tenant_id', '=', tenant)
        .where('kind', '=', 'recording.storage_low')
        .execute();
      assert.equal(events.length, 1);
      assert.match(events[0].body, /VIGIL_RECORDINGS_MIN_FREE_MB/);
    });

    test('a muted or left-alone camera is not recorded: no segments, no stills', async () => {
      const withheld = new Set(['stream_muted']);
      const s = service({}, { withheldReason: (id) => (withheld.has(id) ? 'muted' : null) });
      assert.equal(s.records('stream_muted'), false);
      assert.equal(s.records('stream_free'), true);
      const camera = s.recorder.camera({ tenantId: tenant, streamId: 'stream_muted' }, { isWithheld: () => !s.records('stream_muted') });
      assert.equal(await camera.open('file:///nonexistent.mp4'), null);
      await s.keepStill({ tenantId: tenant, streamId: 'stream_muted' }, Buffer.from([0xff, 0xd8, 0xff, 0xd9]), Date.now());
      assert.deepEqual(await rows('stream_muted'), []);
      await s.keepStill({ tenantId: tenant, streamId: 'stream_free' }, Buffer.from([0xff, 0xd8, 0xff, 0xd9]), Date.now());
      assert.equal((await rows('stream_free')).length, 1, 'a phone still of a stream that may be looked at is kept');
    });
  });
}
