import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { openDatabase, migrateToLatest, type DatabaseHandle } from '../../../src/platform/db/database.ts';
import { PeerLink, SqlLeaseStore } from '../../../src/platform/coordination/index.ts';
import { VigilError } from '../../../src/platform/lib/index.ts';
import { createTestDatabase } from '../../helpers/harness.ts';

/**
 * Node-to-node requests (docs/deployment.md, "Forwarding to a stream's owner"), in process on one
 * PostgreSQL database: the owner is found from its lease and heartbeat, the key is shared through the
 * database when VIGIL_CLUSTER_SECRET is not set, and a request verifies only as it was signed.
 */
const dbase = await createTestDatabase('postgres');
const database: DatabaseHandle = openDatabase({ databaseUrl: dbase.overrides.databaseUrl!, dataDir: dbase.overrides.dataDir! });
await migrateToLatest(database);
after(async () => {
  await database.close();
  await dbase.drop();
});

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof VigilError);
    assert.equal(err.code, 'invalid_api_key');
    return err.message;
  }
  assert.fail('the request was accepted');
}

test('two nodes without VIGIL_CLUSTER_SECRET share one generated key; a forwarded request verifies only as signed', async () => {
  const a = new PeerLink({ database, nodeId: 'node-a', secret: null });
  const b = new PeerLink({ database, nodeId: 'node-b', secret: null });
  await a.start();
  await b.start();
  const rows = await database.db.selectFrom('server_secrets').selectAll().where('name', '=', 'cluster_peer_key').execute();
  assert.equal(rows.length, 1);

  // what node b receives from node a, captured by a real HTTP server standing in for b
  let seen: { method: string; url: string; headers: IncomingMessage['headers']; body: Buffer } | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as { port: number }).port;
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const res = await a.send(
      { nodeId: 'node-b', url: `http://127.0.0.1:${port}` },
      {
        method: 'POST',
        path: '/internal/v1/streams/stream_1/frames',
        headers: { 'content-type': 'image/jpeg' },
        body: jpeg,
      },
    );
    assert.equal(res.status, 200);
    const got = seen!;
    assert.equal(b.verify(got), 'node-a', 'node b accepts what node a signed');

    assert.match(
      refusal(() => b.verify({ ...got, body: Buffer.from([0xff, 0xd8, 9]) })),
      /does not match/,
      'another body',
    );
    assert.match(
      refusal(() => b.verify({ ...got, url: '/internal/v1/streams/stream_2/frames' })),
      /does not match/,
      'another stream',
    );
    assert.match(
      refusal(() => b.verify({ ...got, headers: { ...got.headers, 'x-vigil-node': 'node-c' } })),
      /does not match/,
      'another sender',
    );
    assert.match(
      refusal(() => b.verify({ ...got, headers: { ...got.headers, 'x-vigil-node-signature': undefined } })),
      /missing/,
    );
    const stale = new PeerLink({ database, nodeId: 'node-b', secret: null, now: () => Date.now() + 60_000 });
    await stale.start();
    assert.match(
      refusal(() => stale.verify(got)),
      /too old/,
      'a signature a minute old',
    );
    const stranger = new PeerLink({ database, nodeId: 'node-b', secret: 'another cluster entirely, 32 chars or more' });
    await stranger.start();
    assert.match(
      refusal(() => stranger.verify(got)),
      /does not match/,
      'a node of another cluster',
    );
  } finally {
    server.close();
  }
});

test('the owner of a stream is the holder of its unexpired lease, reached at the address it heartbeats', async () => {
  const leases = new SqlLeaseStore(database);
  const link = new PeerLink({ database, nodeId: 'node-a', secret: 'a shared cluster secret of at least 32 chars' });
  await link.start();
  assert.equal(await link.ownerOf('stream_x'), null, 'nobody holds it');
  await leases.heartbeat({ nodeId: 'node-b', role: 'all', capacity: 1, startedAt: Date.now(), internalUrl: 'http://10.0.0.12:8080' });
  const claim = await leases.claim('stream_x', 'node-b', 60_000);
  assert.ok(claim);
  assert.deepEqual(await link.ownerOf('stream_x'), { nodeId: 'node-b', url: 'http://10.0.0.12:8080' });
  await leases.release('stream_x', 'node-b', claim.epoch);
  assert.equal(await link.ownerOf('stream_x'), null, 'released: nobody to forward to');
});
