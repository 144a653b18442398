/**
 * Several nodes sharing one PostgreSQL and one Redis: in-process contexts and apps,
 * each with its own caches, counters and connections, exactly as separate processes would hold
 * them. Rate limits and stream slots count across nodes, a change written through one node is
 * applied on the others within 1 s, and with Redis killed the API keeps serving and each node
 * limits alone (docs/decisions.md "Redis down"), until Redis returns.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingMessage, type ClientRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { loadConfig } from '../../../src/platform/config/config.ts';
import { createContext, type VigilContext } from '../../../src/context.ts';
import { buildApp } from '../../../src/app.ts';
import { ManualClock } from '../../../src/platform/time/clock.ts';
import { RedisStreamSlots, InProcessStreamSlots } from '../../../src/platform/coordination/index.ts';
import { bearer, createTestDatabase } from '../../helpers/harness.ts';
import { startRedis, type TestRedis } from '../../helpers/redis.ts';

interface Node {
  ctx: VigilContext;
  app: FastifyInstance;
  base: string;
}

/** Polls `probe` until it is true; returns how long that took, or fails after `ms`. */
async function within(ms: number, probe: () => boolean | Promise<boolean>, what: string): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > ms) assert.fail(`${what} not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

/** Opens GET /v1/events/stream on a listening node; resolves with the response head (the stream stays open until `close`). */
function openFeed(base: string, key: string): Promise<{ status: number; body: Promise<string>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(`${base}/v1/events/stream`, { headers: { ...bearer(key), accept: 'text/event-stream' } }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const body = new Promise<string>((r) => res.on('end', () => r(Buffer.concat(chunks).toString())).on('close', () => r(Buffer.concat(chunks).toString())));
      resolve({ status: res.statusCode ?? 0, body, close: () => req.destroy() });
    });
    req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
    req.end();
  });
}

describe('nodes sharing PostgreSQL and Redis', () => {
  let redis: TestRedis;
  let drop: () => Promise<void>;
  const nodes: Node[] = [];
  const clock = new ManualClock('2026-11-23T05:00:05.000Z');
  let a: Node, b: Node, c: Node;

  before(async () => {
    redis = await startRedis();
    const dbase = await createTestDatabase('postgres');
    drop = dbase.drop;
    for (let i = 0; i < 3; i++) {
      const config = loadConfig({ runSources: false, seedDemo: false, publicBaseUrl: 'http://vigil.test', ...dbase.overrides, redisUrl: redis.url }, {});
      const ctx = await createContext(config, { clock });
      const app = await buildApp(ctx);
      await app.listen({ port: 0, host: '127.0.0.1' });
      nodes.push({ ctx, app, base: `http://127.0.0.1:${(app.server.address() as { port: number }).port}` });
    }
    [a, b, c] = nodes;
  });
  after(async () => {
    for (const n of nodes) {
      await n.app.close();
      await n.ctx.close();
    }
    await drop();
    await redis.close();
  });

  const orgKey = (rate = 100_000, name = `Org ${Math.random()}`) =>
    a.ctx.keys.createKey({ tenantKind: 'organization', tenantName: name, mode: 'live', capabilities: 'all', locations: null, rateLimitPerMinute: rate });

  test('the 61st request in a minute through any mix of nodes is refused with the same headers', async () => {
    const key = await orgKey(60);
    let last;
    for (let i = 0; i < 60; i++) {
      last = await nodes[i % 3].app.inject({ url: '/v1/streams', headers: bearer(key) });
      assert.equal(last.statusCode, 200, `request ${i + 1}`);
    }
    assert.equal(last!.headers['ratelimit'], '"per-key";r=0;t=55');
    for (const n of [b, c]) {
      const refused = await n.app.inject({ url: '/v1/streams', headers: bearer(key) });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.json().code, 'rate_limit_exceeded');
      assert.equal(refused.headers['ratelimit-policy'], '"per-key";q=60;w=60');
      assert.equal(refused.headers['ratelimit'], '"per-key";r=0;t=55');
      assert.equal(refused.headers['retry-after'], '55');
    }
    const metrics = (await a.app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /vigil_rate_limit_rejections_total\{policy="per-key",node_id="[^"]+"\} [1-9]/);
  });

  test('the 11th concurrent event stream of a key across nodes is refused; closing one frees a slot on every node', async () => {
    const key = await orgKey();
    const open = [];
    for (let i = 0; i < 10; i++) {
      const feed = await openFeed(nodes[i % 3].base, key.key);
      assert.equal(feed.status, 200, `stream ${i + 1}`);
      open.push(feed);
    }
    for (const n of nodes) {
      const refused = await openFeed(n.base, key.key);
      assert.equal(refused.status, 429);
      assert.equal(JSON.parse(await refused.body).code, 'concurrent_stream_limit_exceeded');
    }
    assert.equal(await a.ctx.streamSlots.openCount(key.id), 10);
    const metrics = (await b.app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /vigil_sse_streams_open\{node_id="[^"]+"\} [1-9]/);
    open[4].close(); // held on node b
    await within(1_000, async () => (await c.ctx.streamSlots.openCount(key.id)) === 9, 'the released slot');
    const again = await openFeed(c.base, key.key);
    assert.equal(again.status, 200);
    for (const f of [...open, again]) f.close();
    await within(1_000, async () => (await a.ctx.streamSlots.openCount(key.id)) === 0, 'every slot released');
  });

  test('the slots of a node that died without releasing them free themselves after their lease', async () => {
    const key = await orgKey();
    // a fourth node's store, holding every slot of the key on short leases, then gone (connection dropped, nothing released)
    const doomed = new Redis(redis.url);
    await new Promise((r) => doomed.once('ready', r));
    const dying = new RedisStreamSlots(doomed, new InProcessStreamSlots());
    for (let i = 0; i < 10; i++) assert.ok(await dying.tryAcquire(key.id, 10, 800));
    doomed.disconnect();
    const refused = await openFeed(a.base, key.key);
    assert.equal(refused.status, 429, 'the dead node’s slots still count within their lease');
    await within(2_000, async () => (await b.ctx.streamSlots.openCount(key.id)) === 0, 'the dead node’s slots expiring');
    const feed = await openFeed(a.base, key.key);
    assert.equal(feed.status, 200);
    feed.close();
  });

  test('an alert rule created through node A fires for a detection processed on node B within 1 s', async () => {
    const key = await orgKey();
    const stream = await b.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'Lobby cam', source_type: 'sandbox', source_url: 'sandbox://lobby?scenario=lobby&seed=3', location: 'lobby' },
    });
    assert.equal(stream.statusCode, 201, stream.body);
    const created = await a.app.inject({
      method: 'POST',
      url: '/v1/alert-rules',
      headers: bearer(key),
      payload: { name: 'Lobby crowded', condition: { type: 'person_count', above: 3 }, locations: ['lobby'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const ruleId = created.json().id as string;
    const tookMs = await within(1_000, () => b.ctx.operations.alertEngine.ruleIdsWithin(key.tenant_id, ['lobby']).includes(ruleId), 'the rule on node B');
    assert.ok(tookMs < 1_000);
    const injected = await b.app.inject({
      method: 'POST',
      url: '/v1/sandbox/detections',
      headers: bearer(key),
      payload: { stream_id: stream.json().id, type: 'person_count', value: 5 },
    });
    assert.equal(injected.statusCode, 201, injected.body);
    const alerts = (await c.app.inject({ url: `/v1/alerts?rule_id=${ruleId}`, headers: bearer(key) })).json().data;
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0].observed, 5);
  });

  test('automation settings changed through one node are served by the others within 1 s', async () => {
    const key = await orgKey();
    const gap = async (n: Node) => (await n.app.inject({ url: '/v1/automation', headers: bearer(key) })).json().incidents.gap_s as number;
    const before = await gap(b);
    const patched = await a.app.inject({
      method: 'PATCH',
      url: '/v1/automation',
      headers: { ...bearer(key), 'x-operator': 'sam' },
      payload: { incident_gap_s: before + 60 },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    await within(1_000, () => b.ctx.operations.automation.incidentGapMs(key.tenant_id) === (before + 60) * 1000, 'the new gap on node B');
    assert.equal(await gap(b), before + 60);
    assert.equal(await gap(c), before + 60);
  });

  test('a sensor muted through one node is dropped by the others within 1 s', async () => {
    const home = await a.ctx.keys.createKey({ tenantKind: 'household', tenantName: 'Mute Home', mode: 'test', rateLimitPerMinute: 100_000 });
    const view = (await b.app.inject({ url: '/v1/household', headers: bearer(home) })).json();
    const driveway = view.sensors.find((s: { name: string }) => s.name === 'Driveway camera');
    assert.ok(driveway, JSON.stringify(view.sensors));
    const said = await a.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(home), payload: { message: 'mute the driveway camera' } });
    assert.equal(said.json().actions[0].type, 'sensor.muted', said.body);
    for (const n of [b, c]) {
      await within(
        1_000,
        async () => {
          const res = await n.app.inject({
            method: 'POST',
            url: '/v1/sandbox/detections',
            headers: bearer(home),
            payload: { stream_id: driveway.id, type: 'motion' },
          });
          return res.statusCode === 409 && res.json().code === 'sensor_muted';
        },
        'the mute',
      );
    }
  });

  test('a key revoked through one node is refused by the others at once, though they had it cached', async () => {
    const key = await orgKey();
    for (const n of nodes) assert.equal((await n.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode, 200);
    const revoked = await a.app.inject({ method: 'DELETE', url: `/v1/keys/${key.id}`, headers: bearer(key) });
    assert.equal(revoked.statusCode, 200, revoked.body);
    for (const n of [b, c]) {
      await within(1_000, async () => (await n.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode === 401, 'the revocation');
    }
  });

  test('with Redis killed reads are served and each node limits alone; when Redis returns, limits are shared again and missed changes are applied', async () => {
    const key = await orgKey(4);
    const fallbacksBefore = await fallbackCount(a);
    await redis.stop();
    await within(3_000, () => !a.ctx.coordination.redis!.up && !b.ctx.coordination.redis!.up, 'Redis seen down');

    const started = Date.now();
    for (let i = 0; i < 4; i++) assert.equal((await a.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode, 200);
    const refusedA = await a.app.inject({ url: '/v1/streams', headers: bearer(key) });
    assert.equal(refusedA.statusCode, 429, 'node A still limits, alone');
    assert.equal(refusedA.headers['ratelimit-policy'], '"per-key";q=4;w=60');
    // node B counts its own: the limit is per node while Redis is down (documented)
    for (let i = 0; i < 4; i++) assert.equal((await b.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode, 200);
    assert.equal((await b.app.inject({ url: '/v1/streams', headers: bearer(key) })).statusCode, 429);
    assert.ok(Date.now() - started < 2_000, `requests did not wait on Redis (${Date.now() - started} ms for 10)`);
    assert.ok((await fallbackCount(a)) > fallbacksBefore, 'fallbacks are counted');

    // event streams still open, each node counting its own slots
    const feeds = await orgKey();
    const feed = await openFeed(a.base, feeds.key);
    assert.equal(feed.status, 200);
    assert.equal(await a.ctx.streamSlots.openCount(feeds.id), 1);
    assert.equal(await b.ctx.streamSlots.openCount(feeds.id), 0, 'node B cannot see node A’s slot while Redis is down');
    feed.close();

    // readiness says Redis is down; health stays up
    assert.equal((await a.app.inject({ url: '/healthz' })).statusCode, 200);
    const ready = await a.app.inject({ url: '/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.equal(ready.json().code, 'service_unavailable');
    assert.match(ready.json().detail, /Redis is not reachable/);
    assert.deepEqual(ready.json().checks, { database: 'ok', migrations: 'ok', redis: 'failed' });

    // a change written while Redis is down reaches the other nodes once it is back
    const other = await orgKey();
    const gap = async (n: Node) => (await n.app.inject({ url: '/v1/automation', headers: bearer(other) })).json().incidents.gap_s as number;
    const gapBefore = await gap(b);
    assert.equal(
      (await a.app.inject({ method: 'PATCH', url: '/v1/automation', headers: bearer(other), payload: { incident_gap_s: gapBefore + 120 } })).statusCode,
      200,
    );
    assert.equal(await gap(b), gapBefore, 'node B cannot know yet');

    await redis.restart();
    await within(5_000, () => nodes.every((n) => n.ctx.coordination.redis!.up), 'Redis seen back');
    await within(2_000, async () => (await a.app.inject({ url: '/readyz' })).statusCode === 200, 'ready again');
    await within(2_000, async () => (await gap(b)) === gapBefore + 120, 'the change missed while Redis was down');

    // shared again: a fresh key's 3 requests across nodes use its limit up
    const shared = await orgKey(3);
    for (const n of [a, b, c]) assert.equal((await n.app.inject({ url: '/v1/streams', headers: bearer(shared) })).statusCode, 200);
    assert.equal((await a.app.inject({ url: '/v1/streams', headers: bearer(shared) })).statusCode, 429);
  });
});

async function fallbackCount(n: Node): Promise<number> {
  const text = (await n.app.inject({ url: '/metrics' })).body;
  return [...text.matchAll(/^vigil_redis_fallbacks_total\{[^}]*\} (\d+)/gm)].reduce((s, m) => s + Number(m[1]), 0);
}
