import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTestApp } from '../helpers/harness.ts';

/** Node roles and the stream view's `assignment`, in process (the real-process files cover the cluster). */

test('single node: a stream started here shows this node as its assignment; one not running shows null', async () => {
  const t = await createTestApp({ config: { nodeId: 'solo-1' } });
  try {
    const key = await t.orgKey({ mode: 'test' });
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'Lobby', source_type: 'sandbox', source_url: 'sandbox://lobby', location: 'lobby' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const view = made.json();
    assert.equal(view.assignment.node_id, 'solo-1');
    assert.equal(view.assignment.epoch, 1);
    assert.ok(Date.parse(view.assignment.since) > 0);
    const listed = await t.app.inject({ method: 'GET', url: '/v1/streams', headers: bearer(key) });
    assert.equal(listed.json().data[0].assignment.node_id, 'solo-1');
  } finally {
    await t.close();
  }
  // a real camera in a process that does not run sources (runSources off): nothing runs it
  const quiet = await createTestApp({ config: { runSources: false } });
  try {
    const made = await quiet.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(await quiet.orgKey()),
      payload: { name: 'Dock', source_type: 'rtsp', source_url: 'rtsp://cam.example/dock', location: 'dock' },
    });
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(made.json().assignment, null);
  } finally {
    await quiet.close();
  }
});

test('VIGIL_ROLE=worker answers health only; every API path says where to go instead', async () => {
  const t = await createTestApp({ dialect: 'postgres', config: { cluster: true, role: 'worker', nodeId: 'worker-1' } });
  try {
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.statusCode, 200);
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    const key = await t.orgKey();
    const streams = await t.app.inject({ method: 'GET', url: '/v1/streams?limit=5', headers: bearer(key) });
    assert.equal(streams.statusCode, 503);
    assert.match(streams.headers['content-type'] as string, /application\/problem\+json/);
    assert.equal(streams.json().code, 'service_unavailable');
    assert.match(streams.json().detail, /VIGIL_ROLE=worker.*VIGIL_ROLE=api or all/);
  } finally {
    await t.close();
  }
});

test('cluster mode, api node: a created stream is not started here and shows no assignment until a worker claims it', async () => {
  const t = await createTestApp({ dialect: 'postgres', config: { cluster: true, role: 'api', nodeId: 'api-1' }, start: true });
  try {
    const key = await t.orgKey({ mode: 'test' });
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: bearer(key),
      payload: { name: 'Lobby', source_type: 'sandbox', source_url: 'sandbox://lobby', location: 'lobby' },
    });
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(made.json().assignment, null);
    assert.equal(t.ctx.sources.running, 0, 'an api node runs no source');
  } finally {
    await t.close();
  }
});
