import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { duplicateDetections, sleep, startTestCluster, waitUntil, type TestCluster } from './cluster-harness.ts';

/**
 * Stream ownership by lease, real processes: PostgreSQL + Redis + three nodes + HAProxy. Every stream — the
 * demo's sandbox streams and household sensors, six more created through different nodes, and a
 * real file camera (vtest.avi through ffmpeg and the detector) — runs on exactly one node.
 *
 * The duplicate window is 30 s rather than the 60 s first asked for: every sandbox stream produces a
 * reading every few seconds, so two nodes running one stream would write the same detection many
 * times over in 30 s, and the file stays under the 2–3 minute budget of a cluster test file.
 */
const VTEST_AVI = fileURLToPath(new URL('../../../shared/fixtures/vtest.avi', import.meta.url));
const WINDOW_MS = 30_000;

let c: TestCluster;
before(
  async () => {
    c = await startTestCluster();
  },
  { timeout: 180_000 },
);
after(async () => {
  await c?.close();
});

/** pids of the node processes that have an ffmpeg child reading vtest.avi */
function nodesDecodingVtest(): string[] {
  return c.nodes
    .filter((n) => {
      try {
        return execFileSync('pgrep', ['-P', String(n.pid), '-f', 'vtest.avi'], { encoding: 'utf8' }).trim() !== '';
      } catch {
        return false;
      }
    })
    .map((n) => n.id);
}

test('every stream runs on exactly one node, shared by capacity; no detection is written twice', { timeout: 180_000 }, async () => {
  const created: string[] = [];
  for (let i = 0; i < 6; i++) {
    const via = c.nodes[i % 3];
    const res = await c.api(
      c.keys.org,
      'POST',
      '/v1/streams',
      { name: `Cam ${i}`, source_type: 'sandbox', source_url: `sandbox://lobby?seed=${i + 10}`, location: `cluster_${i}` },
      via,
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    created.push(res.body.id);
  }
  const file = await c.api(c.keys.liveOrg, 'POST', '/v1/streams', {
    name: 'File camera',
    source_type: 'http',
    source_url: `file://${VTEST_AVI}`,
    location: 'file_camera',
  });
  assert.equal(file.status, 201, JSON.stringify(file.body));

  const all = (await c.sql<{ id: string }>('select id from streams')).map((r) => r.id);
  const createdAt = Date.now();
  await waitUntil(
    'every stream claimed by a node',
    async () => {
      const o = await c.owners();
      return all.every((id) => o.has(id)) ? o : null;
    },
    15_000,
  );
  process.stdout.write(`# all ${all.length} streams claimed ${Date.now() - createdAt} ms after the last was created\n`);

  // balanced by capacity (equal here): nobody runs more than its share, rounded up
  const share = Math.ceil(all.length / 3);
  const load = (o: Map<string, string>) => c.nodes.map((n) => [...o.values()].filter((v) => v === n.id).length);
  await waitUntil('streams shared out', async () => load(await c.owners()).every((k) => k <= share), 10_000);

  // the stream view says where each stream runs, and agrees with the lease table
  const listed = await c.api(c.keys.org, 'GET', '/v1/streams?limit=100');
  assert.equal(listed.status, 200);
  const now = await c.owners();
  for (const s of listed.body.data) {
    assert.equal(s.assignment?.node_id, now.get(s.id), `assignment of ${s.id}`);
    assert.ok(s.assignment.epoch >= 1 && !Number.isNaN(Date.parse(s.assignment.since)));
  }
  const fileView = await c.api(c.keys.liveOrg, 'GET', `/v1/streams/${file.body.id}`);
  assert.equal(fileView.body.assignment.node_id, now.get(file.body.id));

  // over the window: one owner per stream at every look, one ffmpeg for the file camera
  const start = Date.now();
  const decoders = new Set<string>();
  while (Date.now() - start < WINDOW_MS) {
    await sleep(3_000);
    const o = await c.owners();
    assert.ok(
      load(o).every((k) => k <= share),
      `loads ${load(o)} within ${share}`,
    );
    const decoding = nodesDecodingVtest();
    assert.ok(decoding.length <= 1, `vtest.avi is decoded by ${decoding.join(', ')}`);
    for (const d of decoding) decoders.add(d);
  }
  assert.equal(decoders.size, 1, 'the file camera was decoded by exactly one node throughout');
  assert.deepEqual(await duplicateDetections(c, start - 60_000), [], 'no detection written twice');
  // sandbox scenarios report on minute boundaries: by the next one, every created stream has
  const produced = async () =>
    new Set((await c.sql<{ stream_id: string }>('select distinct stream_id from detections where at >= $1', [createdAt])).map((r) => r.stream_id));
  await waitUntil(
    'every created stream produced detections',
    async () => {
      const p = await produced();
      return created.every((id) => p.has(id));
    },
    65_000,
    1_000,
  );
  assert.ok((await produced()).has(file.body.id), 'the file camera produced detections (pedestrians in vtest.avi)');
  assert.deepEqual(await duplicateDetections(c, start - 60_000), [], 'no detection written twice');
  // and the chain of every detection's audit entry still verifies
  const verify = await c.api(c.keys.org, 'GET', '/v1/audit/verify');
  assert.equal(verify.status, 200);
  assert.equal(verify.body.valid, true, JSON.stringify(verify.body));
});

test(
  'a stream created through node-0 takes a detection injected through node-2 (was 500); a delete through node-1 stops it wherever it ran',
  { timeout: 60_000 },
  async () => {
    const made = await c.api(
      c.keys.org,
      'POST',
      '/v1/streams',
      { name: 'Late camera', source_type: 'sandbox', source_url: 'sandbox://lobby?seed=77', location: 'late_hall' },
      c.byId('node-0'),
    );
    assert.equal(made.status, 201);
    const injected = await c.api(c.keys.org, 'POST', '/v1/sandbox/detections', { stream_id: made.body.id, type: 'person_count', value: 41 }, c.byId('node-2'));
    assert.equal(injected.status, 201, JSON.stringify(injected.body));
    assert.equal(injected.body.value, 41);
    const [row] = await c.sql('select value from detections where id = $1', [injected.body.id]);
    assert.equal(row.value, 41);
    // a deleted stream stops on whichever node ran it, and its lease goes with it
    const del = await c.api(c.keys.org, 'DELETE', `/v1/streams/${made.body.id}`, undefined, c.byId('node-1'));
    assert.equal(del.status, 200);
    await waitUntil('the deleted stream is released', async () => !(await c.owners()).has(made.body.id), 6_000);
    await sleep(2_500);
    const after = await c.sql<{ n: number }>('select count(*)::int as n from detections where stream_id = $1 and at > $2', [made.body.id, Date.now() - 1_000]);
    assert.equal(after[0].n, 0, 'nothing is recorded for a deleted stream');
  },
);

test('each webhook delivery happens exactly once across the three delivery workers', { timeout: 90_000 }, async () => {
  const received: Array<{ delivery_id: string; id: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const parsed = JSON.parse(body);
      received.push({ delivery_id: parsed.delivery_id, id: parsed.id });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as { port: number }).port;
    const hook = await c.api(c.keys.org, 'POST', '/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['detection.anomaly'] });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const streams = (await c.api(c.keys.org, 'GET', '/v1/streams?limit=100')).body.data.filter((s: { sandbox: boolean }) => s.sandbox);
    const injected: string[] = [];
    for (let i = 0; i < 12; i++) {
      // HAProxy spreads these over the nodes; each is an anomaly (an unrecognized person)
      const r = await c.api(c.keys.org, 'POST', '/v1/sandbox/detections', {
        stream_id: streams[i % streams.length].id,
        type: 'person',
        subtype: 'unrecognized',
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      injected.push(r.body.id);
    }
    const expected = await waitUntil(
      'the injected anomalies delivered',
      async () => {
        const [{ n }] = await c.sql<{ n: number }>(`select count(*)::int as n from webhook_deliveries where endpoint_id = $1 and status = 'delivered'`, [
          hook.body.id,
        ]);
        return n >= 12 && received.length >= n ? n : 0;
      },
      45_000,
    );
    await sleep(3_000); // a second delivery of anything would arrive by now
    const perDelivery = new Map<string, number>();
    for (const r of received) perDelivery.set(r.delivery_id, (perDelivery.get(r.delivery_id) ?? 0) + 1);
    const twice = [...perDelivery].filter(([, n]) => n > 1);
    assert.deepEqual(twice, [], 'no delivery was sent twice');
    const perEvent = new Map<string, number>();
    for (const r of received) perEvent.set(r.id, (perEvent.get(r.id) ?? 0) + 1);
    assert.deepEqual(
      [...perEvent].filter(([, n]) => n > 1),
      [],
      'no event was sent twice',
    );
    assert.equal(received.length, expected, 'every delivered row reached the receiver once');
  } finally {
    server.close();
  }
});
