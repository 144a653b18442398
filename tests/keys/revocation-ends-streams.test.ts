import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp, createTestDatabase, type TestApp } from '../helpers/harness.ts';
import { startRedis, type TestRedis } from '../helpers/redis.ts';
import { loadConfig } from '../../src/platform/config/index.ts';
import { createContext, type VigilContext } from '../../src/context.ts';
import { buildApp } from '../../src/app.ts';
import type { FastifyInstance } from 'fastify';
import { createGatedPlanner, createHouseholdTestApp, type HouseholdTestApp } from '../household/household-harness.ts';
import { offlinePlanner } from '../../src/home/conversations/conversation.service.ts';

/** An open GET /v1/events/stream over real HTTP: resolves `ended` with the time its body ended. */
async function openFeed(base: string, headers: Record<string, string>) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/v1/events/stream`, { headers: { ...headers, accept: 'text/event-stream' }, signal: ctrl.signal });
  assert.equal(res.status, 200);
  let text = '';
  const ended = (async () => {
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return Date.now();
        text += dec.decode(value, { stream: true });
      }
    } catch {
      return -1; // aborted by the test
    }
  })();
  // the feed is held once its first frame arrived
  for (let i = 0; i < 200 && !text.includes('event: ready'); i++) await new Promise((r) => setTimeout(r, 10));
  assert.match(text, /event: ready/);
  return { ended, text: () => text, close: () => ctrl.abort() };
}

/** ms from `from` until the feed ended, or Infinity if it is still open after `ms`. */
async function endsWithin(feed: { ended: Promise<number> }, from: number, ms: number): Promise<number> {
  const t = await Promise.race([feed.ended, new Promise<number>((r) => setTimeout(() => r(Infinity), ms))]);
  return t === Infinity ? Infinity : t - from;
}

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
}

describe('revoking or rotating a key ends the streams it holds', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await createTestApp({ dialect: 'sqlite' });
    base = await listen(t.app);
  });
  after(() => t.close());

  test("an open event feed of a revoked key ends within 1 s; another key's feed of the same tenant stays open", async () => {
    const owner = await t.orgKey({ name: 'Revoke Org' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/keys',
      headers: bearer(owner),
      payload: { name: 'wall', capabilities: ['scenes:read', 'incidents:read'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const wall = created.json();
    const doomed = await openFeed(base, bearer(wall.key));
    const kept = await openFeed(base, bearer(owner));
    const at = Date.now();
    const res = await t.app.inject({ method: 'DELETE', url: `/v1/keys/${wall.id}`, headers: bearer(owner) });
    assert.equal(res.statusCode, 200);
    const took = await endsWithin(doomed, at, 1000);
    assert.ok(took <= 1000, `the revoked key's feed ended after ${took} ms`);
    assert.equal(await endsWithin(kept, at, 300), Infinity, "the other key's feed is still open");
    kept.close();
    // and the revoked key cannot open another
    const again = await fetch(`${base}/v1/events/stream`, { headers: { ...bearer(wall.key), accept: 'text/event-stream' } });
    assert.equal(again.status, 401);
  });

  test('rotating a key ends its feed; a console wall (session of the key) ends too', async () => {
    const owner = await t.orgKey({ name: 'Rotate Org' });
    const wall = (await t.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(owner), payload: { name: 'wall' } })).json();
    const session = await t.app.inject({ method: 'POST', url: '/v1/console/sessions', headers: bearer(wall.key), payload: { operator: 'Dana' } });
    assert.equal(session.statusCode, 201, session.body);
    const cookie = String(session.headers['set-cookie']).split(';')[0];
    const byKey = await openFeed(base, bearer(wall.key));
    const console = await openFeed(base, { cookie });
    const at = Date.now();
    const rotated = await t.app.inject({ method: 'POST', url: `/v1/keys/${wall.id}/rotate`, headers: bearer(owner) });
    assert.equal(rotated.statusCode, 201, rotated.body);
    for (const [name, feed] of [
      ['key', byKey],
      ['console', console],
    ] as const) {
      const took = await endsWithin(feed, at, 1000);
      assert.ok(took <= 1000, `the ${name} feed ended after ${took} ms`);
    }
  });

  test("signing a console session out ends that session's live feed within 1 s; another session and the key's own feed stay open", async () => {
    const owner = await t.orgKey({ name: 'Sign-out Org' });
    const signIn = async (operator: string) => {
      const res = await t.app.inject({ method: 'POST', url: '/v1/console/sessions', headers: bearer(owner), payload: { operator } });
      assert.equal(res.statusCode, 201, res.body);
      return String(res.headers['set-cookie']).split(';')[0];
    };
    const leaving = await signIn('Dana');
    const staying = await signIn('Lee');
    const leavingWall = await openFeed(base, { cookie: leaving });
    const stayingWall = await openFeed(base, { cookie: staying });
    const byKey = await openFeed(base, bearer(owner));
    const at = Date.now();
    const out = await t.app.inject({ method: 'DELETE', url: '/v1/console/session', headers: { cookie: leaving, 'x-vigil-console': '1' } });
    assert.equal(out.statusCode, 200, out.body);
    const took = await endsWithin(leavingWall, at, 1000);
    assert.ok(took <= 1000, `the signed-out wall ended after ${took} ms`);
    assert.equal(await endsWithin(stayingWall, at, 300), Infinity, "the other operator's wall is still open");
    assert.equal(await endsWithin(byKey, at, 1), Infinity, "the key's own feed is still open");
    stayingWall.close();
    byKey.close();
    // and the signed-out cookie cannot open another
    const again = await fetch(`${base}/v1/events/stream`, { headers: { cookie: leaving, accept: 'text/event-stream' } });
    assert.equal(again.status, 401);
  });

  test("a console session's live feed ends when the session expires, not only at sign-out; the key's own feed stays open", async () => {
    const owner = await t.orgKey({ name: 'Expiry Org' });
    const res = await t.app.inject({ method: 'POST', url: '/v1/console/sessions', headers: bearer(owner), payload: { operator: 'Ari' } });
    assert.equal(res.statusCode, 201, res.body);
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    // the session's 8 hours are almost over: it expires 1.5 s from now
    const expiresAt = Date.now() + 1500;
    await t.ctx.database.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(expiresAt).toISOString() })
      .where('id', '=', res.json().id)
      .execute();
    const wall = await openFeed(base, { cookie });
    const byKey = await openFeed(base, bearer(owner));
    assert.equal(await endsWithin(wall, Date.now(), 1000), Infinity, 'the wall stays open while the session stands');
    const took = await endsWithin(wall, expiresAt, 3000);
    assert.ok(took >= 0 && took <= 1000, `the expired session's wall ended ${took} ms after its expiry`);
    assert.equal(await endsWithin(byKey, Date.now(), 1), Infinity, "the key's own feed is still open");
    byKey.close();
  });

  test('a key revoked by another process on the same database (the admin CLI: nothing announces it here) ends the feed within about a second', async () => {
    const cli = await createContext(t.config);
    try {
      const key = await t.orgKey({ name: 'CLI Org' });
      const feed = await openFeed(base, bearer(key));
      const at = Date.now();
      await cli.keys.revokeKey(key.id);
      const took = await endsWithin(feed, at, 2500);
      // the re-check runs every second: at most one period, plus one query, on a busy machine
      assert.ok(took <= 1500, `ended after ${took} ms`);
    } finally {
      await cli.close();
    }
  });
});

describe("on every node: a revocation made on one node ends the key's streams on another (PostgreSQL + Redis)", () => {
  let redis: TestRedis;
  const nodes: Array<{ ctx: VigilContext; app: FastifyInstance; base: string }> = [];
  let drop: () => Promise<void>;
  before(async () => {
    redis = await startRedis();
    const dbase = await createTestDatabase('postgres');
    drop = dbase.drop;
    for (let i = 0; i < 2; i++) {
      const config = loadConfig({ runSources: false, seedDemo: false, publicBaseUrl: 'http://vigil.test', ...dbase.overrides, redisUrl: redis.url }, {});
      const ctx = await createContext(config);
      await ctx.coordination.start();
      const app = await buildApp(ctx);
      nodes.push({ ctx, app, base: await listen(app) });
    }
  });
  after(async () => {
    for (const n of nodes) {
      await n.app.close();
      await n.ctx.close();
    }
    await drop();
    await redis.close();
  });

  test('a feed open on node B ends within 1 s of the key being revoked on node A', async () => {
    const [a, b] = nodes;
    const owner = await a.ctx.keys.createKey({
      tenantKind: 'organization',
      tenantName: 'Cluster Org',
      mode: 'live',
      capabilities: 'all',
      locations: null,
      rateLimitPerMinute: 100_000,
    });
    const wall = (await a.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(owner), payload: { name: 'wall' } })).json();
    const feed = await openFeed(b.base, bearer(wall.key));
    const at = Date.now();
    const res = await a.app.inject({ method: 'DELETE', url: `/v1/keys/${wall.id}`, headers: bearer(owner) });
    assert.equal(res.statusCode, 200);
    const took = await endsWithin(feed, at, 1000);
    assert.ok(took <= 1000, `ended on the other node after ${took} ms`);
    console.log(`# feed on the other node ended ${took} ms after the revocation`);
  });
});

describe('a streamed conversation reply of a revoked key ends, and its remaining steps are not taken', () => {
  const gate = createGatedPlanner(offlinePlanner);
  let h: HouseholdTestApp;
  let base: string;
  before(async () => {
    h = await createHouseholdTestApp({ dialect: 'sqlite', planner: gate });
    base = await listen(h.app);
  });
  after(() => h.close());

  test('the stream ends within 1 s of the revocation; the watch it was about to create is not created', async () => {
    const owner = await h.householdKey({ name: 'Stream Home' });
    const member = (await h.app.inject({ method: 'POST', url: '/v1/keys', headers: bearer(owner), payload: { name: 'phone', role: 'member' } })).json();
    assert.ok(member.key, JSON.stringify(member));
    gate.close();
    const res = await fetch(`${base}/v1/conversations`, {
      method: 'POST',
      headers: { ...bearer(member.key), accept: 'text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'watch the garage tonight' }),
    });
    assert.equal(res.status, 200);
    const ended = (async () => {
      const reader = res.body!.getReader();
      for (;;) if ((await reader.read()).done) return Date.now();
    })();
    for (let i = 0; i < 200 && gate.waiting() === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(gate.waiting(), 1, 'the reply is held open at the planner');
    const at = Date.now();
    assert.equal((await h.app.inject({ method: 'DELETE', url: `/v1/keys/${member.id}`, headers: bearer(owner) })).statusCode, 200);
    const took = await Promise.race([ended.then((t) => t - at), new Promise<number>((r) => setTimeout(() => r(Infinity), 1000))]);
    assert.ok(took <= 1000, `the streamed reply ended after ${took} ms`);
    gate.open();
    await new Promise((r) => setTimeout(r, 200));
    const watches = (await h.app.inject({ url: '/v1/watches', headers: bearer(owner) })).json();
    assert.equal(watches.data.length, 0, 'no step was taken after the revocation');
  });
});
