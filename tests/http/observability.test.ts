/**
 * GET /metrics, /healthz and /readyz: what an operator's Prometheus and load
 * balancer see. The Redis side of readiness is in tests/platform/coordination/multi-node.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.ts';
import { createProcessLogger } from '../../src/platform/lib/index.ts';
import { DrainState } from '../../src/platform/metrics/index.ts';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { generateKey } from '../../src/platform/identity/key-format.ts';

/** The value of one series in a Prometheus text exposition (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const m = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const have = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[2]);
  }
  return 0;
}

for (const dialect of DIALECTS) {
  describe(`metrics, health and readiness (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ dialect });
    });
    after(() => t.close());

    test('GET /metrics is Prometheus text with node_id on every series; a detection shows in the counter and the latency histogram', async () => {
      const key = await t.orgKey();
      const stream = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Gate', source_type: 'sandbox', source_url: 'sandbox://gate?scenario=lobby&seed=2', location: 'gate' },
      });
      assert.equal(stream.statusCode, 201, stream.body);
      await t.ctx.pipeline.drain(); // the new sandbox stream's first 15 minutes are generated at once
      const scrape = async () => {
        const res = await t.app.inject({ url: '/metrics' });
        assert.equal(res.statusCode, 200);
        assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
        return res.body;
      };
      const before = await scrape();
      const injected = await t.app.inject({
        method: 'POST',
        url: '/v1/sandbox/detections',
        headers: bearer(key),
        payload: { stream_id: stream.json().id, type: 'vehicle', count: 2 },
      });
      assert.equal(injected.statusCode, 201, injected.body);
      const after = await scrape();
      assert.equal(sample(after, 'vigil_detections_total', { type: 'vehicle' }) - sample(before, 'vigil_detections_total', { type: 'vehicle' }), 1);
      assert.equal(sample(after, 'vigil_pipeline_latency_seconds_count') - sample(before, 'vigil_pipeline_latency_seconds_count'), 1);
      assert.ok(sample(after, 'vigil_pipeline_latency_seconds_bucket', { le: '+Inf' }) >= 1);
      for (const line of after.split('\n').filter((l) => l && !l.startsWith('#'))) assert.match(line, /node_id="[^"]+"/, line);
      // event-loop lag and the webhook queue are there too
      assert.match(after, /^nodejs_eventloop_lag_seconds\{node_id="[^"]+"\} /m);
      assert.match(after, /^vigil_webhook_queue_depth\{node_id="[^"]+"\} \d+/m);
      // no series names a tenant, a location or a key
      assert.doesNotMatch(after, new RegExp(`${key.tenant_id}|${key.id}|gate`));
    });

    test('vigil_streams counts the sources running on this node by status', async () => {
      const key = await t.orgKey();
      const live = async () => sample((await t.app.inject({ url: '/metrics' })).body, 'vigil_streams', { status: 'live' });
      const before = await live();
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/streams',
        headers: bearer(key),
        payload: { name: 'Dock', source_type: 'sandbox', source_url: 'sandbox://dock?scenario=lobby&seed=4', location: 'dock' },
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(await live(), before + 1);
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/streams/${created.json().id}`, headers: bearer(key) })).statusCode, 200);
      assert.equal(await live(), before);
    });

    test('without VIGIL_METRICS_TOKEN, /metrics answers this machine only: another address, or a proxy forwarding one, gets 401', async () => {
      assert.equal((await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })).statusCode, 200);
      for (const req of [
        { remoteAddress: '203.0.113.9' },
        { remoteAddress: '10.0.0.7' },
        { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } },
      ]) {
        const res = await t.app.inject({ url: '/metrics', ...req });
        assert.equal(res.statusCode, 401, JSON.stringify(req));
        assert.equal(res.json().code, 'invalid_metrics_token');
        assert.doesNotMatch(res.body, /vigil_detections_total/);
      }
    });

    test('GET /healthz is 200 while the process serves; GET /readyz is 200 while everything it needs is there', async () => {
      assert.deepEqual((await t.app.inject({ url: '/healthz' })).json(), { status: 'ok' });
      assert.deepEqual((await t.app.inject({ url: '/readyz' })).json(), { status: 'ready' });
    });

    test('a migration the code knows but the database has not run makes the node not ready, naming it', async () => {
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(t.ctx.database.db);
      const last = rows[0].name;
      await sql`delete from kysely_migration where name = ${last}`.execute(t.ctx.database.db);
      try {
        const res = await t.app.inject({ url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.match(String(res.headers['content-type']), /application\/problem\+json/);
        assert.equal(res.json().code, 'service_unavailable');
        assert.match(res.json().detail, new RegExp(`migration.*${last}`));
        assert.deepEqual(res.json().checks, { database: 'ok', migrations: 'failed', redis: 'not_configured' });
        assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
      } finally {
        await sql`insert into kysely_migration (name, timestamp) values (${last}, ${new Date().toISOString()})`.execute(t.ctx.database.db);
      }
      assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
    });
  });
}

describe('a node that has begun a graceful stop', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('answers /healthz and /readyz 503 naming the stop, and still serves the API meanwhile', async () => {
    const drain = new DrainState();
    const app = await buildApp(t.ctx, { drain });
    try {
      assert.equal((await app.inject({ url: '/healthz' })).statusCode, 200);
      drain.start();
      const health = await app.inject({ url: '/healthz' });
      assert.equal(health.statusCode, 503);
      assert.match(String(health.headers['content-type']), /application\/problem\+json/);
      assert.equal(health.json().code, 'service_unavailable');
      assert.match(health.json().detail, /stopping/);
      const ready = await app.inject({ url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.match(ready.json().detail, /stopping/);
      // until the drain delay ends the node answers what it is sent
      const scenes = await app.inject({ url: '/v1/scenes', headers: bearer(await t.orgKey()) });
      assert.equal(scenes.statusCode, 200);
    } finally {
      await app.close();
    }
  });
});

describe('GET /metrics with VIGIL_METRICS_TOKEN', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ config: { metricsToken: 'scrape-token-0123456789' } });
  });
  after(() => t.close());

  test('needs the token as a bearer; anything else is 401 invalid_metrics_token', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, bearer(await t.orgKey())]) {
      // from this machine too: with a token configured, the token is what counts
      const res = await t.app.inject({ url: '/metrics', headers, remoteAddress: '127.0.0.1' });
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'invalid_metrics_token');
      assert.equal(res.json().param, 'Authorization');
    }
    const ok = await t.app.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-token-0123456789' }, remoteAddress: '198.51.100.4' });
    assert.equal(ok.statusCode, 200);
    assert.match(ok.body, /vigil_detections_total/);
  });
});

describe('GET /readyz when the database is gone (postgres)', () => {
  let t: TestApp;
  let key: { key: string };
  before(async () => {
    t = await createTestApp({ dialect: 'postgres' });
    key = await t.orgKey();
  });
  after(() => t.close());

  test('503 naming the database; /healthz stays 200', async () => {
    assert.equal((await t.app.inject({ url: '/readyz' })).statusCode, 200);
    // the database disappears under the node (its connections are cut)
    const url = new URL(t.config.databaseUrl!);
    const name = url.pathname.slice(1);
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
    const res = await t.app.inject({ url: '/readyz' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().code, 'service_unavailable');
    assert.match(res.json().detail, /database is not reachable/);
    assert.deepEqual(res.json().checks, { database: 'failed', migrations: 'failed', redis: 'not_configured' });
    assert.equal((await t.app.inject({ url: '/healthz' })).statusCode, 200);
  });

  test('API requests get 503 with Retry-After, not a 500 that reads as a bug', async () => {
    // the key was made while the database was there (the previous test dropped it)
    for (const req of [
      { method: 'GET' as const, url: '/v1/streams', headers: bearer(key) },
      { method: 'POST' as const, url: '/v1/streams', headers: bearer(key), payload: { name: 'cam', source_type: 'sandbox', source_url: 'sandbox://lobby' } },
      // a well-formed key this node has never verified: its lookup needs the database
      { method: 'GET' as const, url: '/v1/streams', headers: { authorization: `Bearer ${generateKey('test')}` } },
    ]) {
      const res = await t.app.inject(req);
      assert.equal(res.statusCode, 503, `${req.method} ${req.url}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
      assert.equal(res.json().code, 'service_unavailable');
      assert.match(res.json().detail, /database cannot be reached/);
      assert.equal(res.headers['retry-after'], '5');
    }
  });
});

describe('log lines', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('carry the node id, and request lines the request id the client saw', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        cb();
      },
    });
    const app = await buildApp(t.ctx, { loggerInstance: createProcessLogger({ level: 'info', nodeId: 'node-7', destination: sink }) });
    try {
      const res = await app.inject({ url: '/v1/streams', headers: bearer(await t.orgKey()) });
      const completed = lines.find((l) => l.msg === 'request completed');
      assert.ok(completed, JSON.stringify(lines));
      assert.equal(completed.node_id, 'node-7');
      assert.equal(completed.request_id, res.headers['x-request-id']);
    } finally {
      await app.close();
    }
  });
});
