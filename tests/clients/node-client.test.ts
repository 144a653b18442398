import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  SignatureVerificationError,
  Vigil,
  VigilError,
} from '../../clients/node/src/index.js';
import { ManualClock } from '../../src/platform/time/clock.ts';
import {
  MisbehavingProxy,
  WebhookInbox,
  skipUnlessOperations,
  specOperationIds,
  startClientTestServer,
  type ClientTestServer,
} from './client-test-server.ts';

const ops = specOperationIds();
const lobby = { name: 'North lobby camera', sourceType: 'sandbox', sourceUrl: 'sandbox://lobby?scenario=lobby&seed=7', location: 'north_lobby' } as const;

async function rejectionOf(p: PromiseLike<unknown>): Promise<VigilError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof VigilError, `a VigilError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

let server: ClientTestServer;
before(async () => {
  server = await startClientTestServer();
});
after(() => server.close());

describe('Node client against the running service', () => {
  let vigil: Vigil;
  let orgKey: string;

  before(async () => {
    orgKey = (await server.t.orgKey()).key;
    vigil = new Vigil({ apiKey: orgKey, baseUrl: server.baseUrl });
  });

  test('creates a stream and queries its scene, camelCase in and out (spec Surface B examples)', async () => {
    const stream = await vigil.streams.create(lobby);
    assert.match(stream.id, /^stream_/);
    assert.equal(stream.sourceType, 'sandbox');
    assert.match(stream.sceneId, /^scene_/);
    assert.equal((stream as Record<string, unknown>).scene_id, undefined, 'no snake_case keys reach the caller');

    const result = await vigil.scenes.query(stream.sceneId, { streamId: stream.id, query: 'How many people are in the lobby right now?', window: '15m' });
    assert.equal(result.streamId, stream.id);
    assert.equal(result.query, 'How many people are in the lobby right now?');
    assert.match(result.answeredAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok(Array.isArray(result.detections));
    assert.equal(typeof result.crowdDensity, 'number');
    assert.equal(typeof result.anomalyFlag, 'boolean');

    const fetched = await vigil.streams.get(stream.id);
    assert.equal(fetched.id, stream.id);
    const renamed = await vigil.streams.update(stream.id, { name: 'Lobby (renamed)' });
    assert.equal(renamed.name, 'Lobby (renamed)');
  });

  test('list methods page automatically across more than one page', async () => {
    const created: string[] = [];
    for (let i = 0; i < 5; i++) created.push((await vigil.streams.create({ ...lobby, name: `Dock ${i}`, location: 'loading_dock' })).id);

    const firstPage = await vigil.streams.list({ limit: 2, location: 'loading_dock' });
    assert.equal(firstPage.data.length, 2);
    assert.equal(firstPage.hasMore, true);

    const seen: string[] = [];
    for await (const s of vigil.streams.list({ limit: 2, location: 'loading_dock' })) seen.push(s.id);
    assert.deepEqual(seen, [...created].reverse(), 'every stream once, newest first, across 3 pages');

    const three = await vigil.streams.list({ limit: 2, location: 'loading_dock' }).autoPagingToArray({ limit: 3 });
    assert.deepEqual(three.map((s) => s.id), [...created].reverse().slice(0, 3));
  });

  test('problem responses become typed errors with code, status, requestId and param', async () => {
    const missing = await rejectionOf(vigil.streams.get('stream_00000000000000000000000000'));
    assert.ok(missing instanceof NotFoundError);
    assert.equal(missing.code, 'not_found');
    assert.equal(missing.status, 404);
    assert.match(missing.requestId!, /^req_/);

    const invalid = await rejectionOf(vigil.streams.create({ ...lobby, location: 'North Lobby!' }));
    assert.ok(invalid instanceof InvalidRequestError);
    assert.equal(invalid.code, 'validation_failed');
    assert.equal(invalid.status, 400);
    assert.equal(invalid.param, 'location');

    const stranger = new Vigil({ apiKey: 'vk_live_000000000000000000000000000000000000', baseUrl: server.baseUrl });
    const denied = await rejectionOf(stranger.streams.list());
    assert.ok(denied instanceof AuthenticationError);
    assert.equal(denied.status, 401);
    assert.equal(typeof denied.code, 'string');
  });

  test('incidents.create and incidents.triggerProtocol: result.respondersNotified, with a signed notification to the responder', {
    skip: skipUnlessOperations(ops, 'createIncident', 'triggerProtocol', 'createResponder'),
  }, async () => {
    const inbox = new WebhookInbox();
    try {
      const responder = await vigil.responders.create({ name: 'Night desk', kind: 'person', escalationLevel: 1, contact: { webhookUrl: await inbox.start() } });
      const stream = await vigil.streams.create({ ...lobby, location: 'east_gate' });
      const incident = await vigil.incidents.create({ streamId: stream.id });
      assert.match(incident.id, /^incident_/);

      const result = await vigil.incidents.triggerProtocol(incident.id, { protocolType: 'unauthorized_access', notifyResponders: true, escalationLevel: 2 });
      assert.equal(result.status, 'active');
      assert.equal(result.respondersNotified, 1);

      const delivery = await inbox.waitForEvent('protocol.triggered');
      const event = vigil.webhooks.verify(delivery.raw, delivery.headers['x-service-signature'], responder.signingSecret, {
        timestamp: delivery.headers['x-service-timestamp'] as string,
      });
      assert.equal(event.type, 'protocol.triggered');
      assert.ok(JSON.stringify(event.data).includes(incident.id), 'the notification names the incident');
    } finally {
      await inbox.stop();
    }
  });

  test('a real signed webhook delivery verifies with the whsec_ secret; tampering is a typed error', {
    skip: skipUnlessOperations(ops, 'createWebhook', 'createIncident'),
  }, async () => {
    const inbox = new WebhookInbox();
    try {
      const endpoint = await vigil.webhooks.create({ url: await inbox.start(), events: ['incident.created'] });
      assert.match(endpoint.secret!, /^whsec_/);
      const stream = await vigil.streams.create({ ...lobby, location: 'west_gate' });
      const incident = await vigil.incidents.create({ streamId: stream.id });

      const delivery = await inbox.waitForEvent('incident.created');
      const signature = delivery.headers['x-service-signature'];
      const event = vigil.webhooks.verify(delivery.raw, signature, endpoint.secret!, { timestamp: delivery.headers['x-service-timestamp'] as string, toleranceS: 300 });
      assert.equal(event.type, 'incident.created');
      assert.match(event.id!, /^evt_/);
      assert.equal(JSON.stringify(event.data).includes(incident.id), true);

      const tampered = Buffer.from(delivery.raw.toString('utf8').replace(incident.id, 'incident_forged'));
      assert.throws(() => vigil.webhooks.verify(tampered, signature, endpoint.secret!), (e: unknown) => e instanceof SignatureVerificationError && e.code === 'signature_mismatch');
      assert.throws(() => vigil.webhooks.verify(delivery.raw, signature, 'whsec_not-the-secret'), (e: unknown) => e instanceof SignatureVerificationError && e.code === 'signature_mismatch');
    } finally {
      await inbox.stop();
    }
  });

  test('household: conversations.create and conversations.stream (token by token, actions as taken), watches, events, key-signed webhooks', {
    skip: skipUnlessOperations(ops, 'converse', 'listWatches', 'listEvents', 'createWebhook'),
  }, async () => {
    const householdKey = (await server.t.householdKey({ mode: 'test' })).key;
    const home = new Vigil({ apiKey: householdKey, baseUrl: server.baseUrl });
    const inbox = new WebhookInbox();
    try {
      await home.webhooks.create({ url: await inbox.start(), events: ['watch.created'] });

      const events = [];
      for await (const ev of home.conversations.stream({ message: 'Watch the back door from sunset to sunrise' })) events.push(ev);
      assert.equal(events[0].event, 'conversation.created');
      const last = events[events.length - 1];
      assert.equal(last.event, 'conversation.completed');
      assert.ok(events.some((e) => e.event === 'reply.delta'), 'the reply arrives in deltas');
      const actions = events.filter((e) => e.event === 'action');
      if (last.event !== 'conversation.completed') assert.fail('completed last');
      const reply = last.data.conversation;
      assert.equal(actions.length, reply.actions.length, 'one action frame per action, before completion');
      assert.equal(
        events.filter((e) => e.event === 'reply.delta').map((e) => (e.data as { delta: string }).delta).join(''),
        reply.reply,
        'the deltas add up to the reply',
      );
      const watchAction = reply.actions.find((a: { type: string }) => a.type === 'watch.created') as { id: string } | undefined;
      assert.ok(watchAction, 'the agent created a watch');

      const watches = await home.watches.list();
      assert.ok(watches.data.some((w) => w.id === watchAction.id));

      const followUp = await home.conversations.create({ message: 'What are you watching?', conversationId: reply.id });
      assert.equal(followUp.id, reply.id);
      assert.equal(typeof followUp.reply, 'string');

      const page = await home.events.list();
      assert.ok(Array.isArray(page.data));

      // "Surface A deliveries are signed with the key": the client derives the secret from the key
      const delivery = await inbox.waitForEvent('watch.created');
      const verified = home.webhooks.verify(delivery.raw, delivery.headers['x-service-signature'], Vigil.householdWebhookSecret(householdKey));
      assert.equal(verified.type, 'watch.created');
    } finally {
      await inbox.stop();
    }
  });
});

describe('Node client through a misbehaving network', () => {
  let proxy: MisbehavingProxy;
  let proxyUrl: string;
  let orgKey: string;

  before(async () => {
    orgKey = (await server.t.orgKey()).key;
    proxy = new MisbehavingProxy(server.baseUrl);
    proxyUrl = await proxy.start();
  });
  after(() => proxy.stop());

  test('a POST whose answer is lost is retried with the same Idempotency-Key and creates one stream', async () => {
    const vigil = new Vigil({ apiKey: orgKey, baseUrl: proxyUrl, maxRetries: 2 });
    proxy.seen.length = 0;
    proxy.behave = (n) => (n === 1 ? 'forward-then-drop' : 'forward');
    const stream = await vigil.streams.create({ ...lobby, location: 'vault' });
    assert.equal(proxy.seen.length, 2, 'one retry');
    const keys = proxy.seen.map((s) => s.headers['idempotency-key']);
    assert.ok(keys[0] && keys[0] === keys[1], 'the retry carries the first attempt’s Idempotency-Key');
    const inVault = await new Vigil({ apiKey: orgKey, baseUrl: server.baseUrl }).streams.list({ location: 'vault' });
    assert.deepEqual(inVault.data.map((s) => s.id), [stream.id], 'the service acted once');
  });

  test('a GET whose connection drops is retried; with retries off the caller gets APIConnectionError', async () => {
    proxy.behave = (n) => (n === 1 ? 'forward-then-drop' : 'forward');
    proxy.seen.length = 0;
    const page = await new Vigil({ apiKey: orgKey, baseUrl: proxyUrl }).streams.list();
    assert.ok(Array.isArray(page.data));
    assert.equal(proxy.seen.length, 2);

    proxy.seen.length = 0;
    const err = await rejectionOf(new Vigil({ apiKey: orgKey, baseUrl: proxyUrl, maxRetries: 0 }).streams.list());
    assert.ok(err instanceof APIConnectionError);
    assert.equal(err.status, undefined);
  });

  test('a non-JSON error page from a proxy is an error with the status and the raw text', async () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    proxy.behave = () => ({ status: 502, body: html });
    const err = await rejectionOf(new Vigil({ apiKey: orgKey, baseUrl: proxyUrl, maxRetries: 0 }).streams.list());
    assert.ok(err instanceof APIError);
    assert.equal(err.status, 502);
    assert.equal(err.code, null);
    assert.equal(err.rawBody, html);
    assert.match(err.message, /502 Bad Gateway/);
    proxy.behave = () => 'forward';
  });
});

describe('Node client and the rate limit', () => {
  // the service's clock sits half a second before a rate window ends, so Retry-After is 1 s
  const clock = new ManualClock(Date.parse('2026-11-21T20:40:59.500Z'));
  let limited: ClientTestServer;
  let key: string;
  let rateLimited = 0;
  // the service's clock only moves when told: a fetch that lets the waited-for second pass on it too
  const fetchAdvancingClock: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.status === 429) {
      rateLimited++;
      await clock.advance(Number(res.headers.get('retry-after')) * 1000);
    }
    return res;
  };

  before(async () => {
    limited = await startClientTestServer({ clock });
    key = (await limited.t.orgKey({ rate: 1 })).key;
  });
  after(() => limited.close());

  test('429 is retried after Retry-After; with retries off it is a RateLimitError', async () => {
    const vigil = new Vigil({ apiKey: key, baseUrl: limited.baseUrl, fetch: fetchAdvancingClock });
    await vigil.streams.list();
    const page = await vigil.streams.list(); // over the 1/min limit: 429, wait, then the next window
    assert.ok(Array.isArray(page.data));
    assert.equal(rateLimited, 1, 'one 429 was absorbed by the retry');

    const impatient = new Vigil({ apiKey: key, baseUrl: limited.baseUrl, maxRetries: 0 });
    const err = await rejectionOf(impatient.streams.list());
    assert.ok(err instanceof RateLimitError);
    assert.equal(err.code, 'rate_limit_exceeded');
    assert.equal(err.status, 429);
    assert.ok((err as RateLimitError).retryAfter! >= 1);
  });

  test('a Retry-After longer than maxRetryAfterS is not waited for', async () => {
    await clock.advance(60_000); // half a second into a fresh window: Retry-After would be 60 s
    let attempts = 0;
    const countingFetch: typeof fetch = (input, init) => {
      attempts++;
      return fetch(input, init);
    };
    const vigil = new Vigil({ apiKey: key, baseUrl: limited.baseUrl, maxRetryAfterS: 5, fetch: countingFetch });
    await vigil.streams.list();
    const err = await rejectionOf(vigil.streams.list());
    assert.ok(err instanceof RateLimitError);
    assert.ok((err as RateLimitError).retryAfter! > 5);
    assert.equal(attempts, 2, 'the rate-limited request was not retried');
  });
});
