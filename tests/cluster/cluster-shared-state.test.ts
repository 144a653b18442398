/**
 * Shared state across real nodes: PostgreSQL + Redis + three Vigil processes
 * behind HAProxy, started by the test. One key's requests through any mix of nodes are counted
 * together, concurrent streams are counted together, an alert rule made through one node fires for
 * a detection processed on another within a second, and with Redis down the API keeps answering
 * (each node limiting on its own, docs/decisions.md "Redis down") and shares again once it is back.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { atSecondOfMinute, sleep, startTestCluster, type TestCluster } from './cluster-harness.ts';

/** Opens GET /v1/events/stream on `base`; resolves with the status once the head arrives (the stream stays open until `close`). */
function openFeed(base: string, key: string): Promise<{ status: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = request(
      `${base}/v1/events/stream`,
      { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } },
      (res: IncomingMessage) => {
        res.on('data', () => undefined);
        res.on('error', () => undefined);
        resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
      },
    );
    req.on('error', (err) => reject(err));
    req.end();
  });
}

describe('shared state across three real nodes (PostgreSQL + Redis + HAProxy)', () => {
  let c: TestCluster;
  const newKey = async (name: string) => {
    const made = await c.api(c.keys.org, 'POST', '/v1/keys', { name });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    return made.body.key as string;
  };

  before(async () => {
    c = await startTestCluster();
  });
  after(async () => {
    await c?.close();
  });

  test('the 61st request in a minute through any mix of nodes is 429', async () => {
    const key = await newKey('rate limit probe');
    // 61 requests inside one fixed window: start early in a minute
    if (new Date().getSeconds() > 40) await atSecondOfMinute(1);
    const statuses: number[] = [];
    let last: { status: number; body: any; headers: Headers } | null = null;
    for (let i = 0; i < 61; i++) {
      last = await c.api(key, 'GET', '/v1/streams?limit=1', undefined, c.nodes[i % c.nodes.length]);
      statuses.push(last.status);
    }
    assert.deepEqual(statuses.slice(0, 60), Array(60).fill(200), 'the first 60, spread over the three nodes, are served');
    assert.equal(statuses[60], 429);
    assert.equal(last!.body.code, 'rate_limit_exceeded');
    assert.ok(Number(last!.headers.get('retry-after')) >= 1, 'Retry-After says when the window ends');
    // and through HAProxy, whichever node it picks
    assert.equal((await c.api(key, 'GET', '/v1/streams?limit=1')).status, 429);
  });

  test('the 11th concurrent event stream across nodes is 429; closing one frees a slot for every node', async () => {
    const key = await newKey('stream slots probe');
    const open: Array<{ status: number; close: () => void }> = [];
    try {
      for (let i = 0; i < 10; i++) open.push(await openFeed(c.nodes[i % c.nodes.length].url, key));
      assert.deepEqual(
        open.map((o) => o.status),
        Array(10).fill(200),
      );
      const eleventh = await openFeed(c.nodes[1].url, key);
      open.push(eleventh);
      assert.equal(eleventh.status, 429, 'the 11th stream, on a node holding only 3 of the 10');
      open[0].close(); // held by node 0
      let again = { status: 0, close: () => undefined } as { status: number; close: () => void };
      for (let i = 0; i < 20 && again.status !== 200; i++) {
        await sleep(100);
        again = await openFeed(c.nodes[2].url, key);
        open.push(again);
      }
      assert.equal(again.status, 200, 'a slot freed on node 0 is free on node 2');
    } finally {
      for (const o of open) o.close();
    }
  });

  test('an alert rule created through node A fires for a detection processed on node B within 1 s', async () => {
    const key = c.keys.org;
    const [a, b, reader] = c.nodes;
    const stream = await c.api(
      key,
      'POST',
      '/v1/streams',
      { name: 'Dock cam', source_type: 'sandbox', source_url: 'sandbox://lobby?scenario=lobby&seed=9', location: 'loading_dock' },
      b,
    );
    assert.equal(stream.status, 201, JSON.stringify(stream.body));
    const rule = await c.api(
      key,
      'POST',
      '/v1/alert-rules',
      { name: 'Dock crowded', condition: { type: 'person_count', above: 400 }, locations: ['loading_dock'] },
      a,
    );
    assert.equal(rule.status, 201, JSON.stringify(rule.body));
    await sleep(1_000);
    // sandbox detections posted to a node are processed by that node
    const injected = await c.api(key, 'POST', '/v1/sandbox/detections', { stream_id: stream.body.id, type: 'person_count', value: 450 }, b);
    assert.equal(injected.status, 201, JSON.stringify(injected.body));
    const alerts = await c.api(key, 'GET', `/v1/alerts?rule_id=${rule.body.id}`, undefined, reader);
    assert.equal(alerts.status, 200);
    assert.equal(alerts.body.data.length, 1, 'the rule was known on node B one second after node A made it');
    assert.equal(alerts.body.data[0].observed, 450);
  });

  test('with Redis down every node still serves reads and says it is not ready; back up, limits are shared again', async () => {
    const key = await newKey('redis outage probe');
    c.redis.proc.kill('SIGKILL');
    await sleep(1_500);
    try {
      for (const node of c.nodes) {
        const res = await c.api(key, 'GET', '/v1/streams?limit=1', undefined, node);
        assert.equal(res.status, 200, `${node.id} serves reads without Redis`);
        const ready = await fetch(`${node.url}/readyz`);
        assert.equal(ready.status, 503, 'readiness says Redis is down');
      }
      assert.equal((await c.api(key, 'GET', '/v1/streams?limit=1')).status, 200, 'HAProxy keeps every node (it checks /healthz)');
    } finally {
      // Redis comes back on the same port, empty (it keeps nothing durable)
      const proc = spawn(
        'redis-server',
        ['--port', String(c.redis.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
        { stdio: 'ignore' },
      );
      c.redis.proc = proc;
    }
    let ready = 0;
    for (let i = 0; i < 50 && ready < c.nodes.length; i++) {
      await sleep(200);
      ready = (await Promise.all(c.nodes.map((n) => fetch(`${n.url}/readyz`).then((r) => r.status)))).filter((s) => s === 200).length;
    }
    assert.equal(ready, c.nodes.length, 'every node is ready again once Redis returns');
    // counting is shared again: a fresh key's 61st request across nodes is refused
    const fresh = await newKey('after the outage');
    if (new Date().getSeconds() > 40) await atSecondOfMinute(1);
    let status = 0;
    for (let i = 0; i < 61; i++) status = (await c.api(fresh, 'GET', '/v1/streams?limit=1', undefined, c.nodes[i % c.nodes.length])).status;
    assert.equal(status, 429);
  });
});
