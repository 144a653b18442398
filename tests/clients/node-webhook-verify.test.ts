import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { DeliveryIdCache, SignatureVerificationError, Vigil, verifyWebhook } from '../../clients/node/src/index.js';
import { parseEventStream } from '../../clients/node/src/core/sse.js';
import { camelizeKeys, snakeizeKeys } from '../../clients/node/src/core/casing.js';

// A detection.anomaly body as README "Security operations walkthrough" shows it, signed by this test with node:crypto — not by the client.
// Like every delivery it carries delivery_id and sent_at inside the signed body; sent now.
const secret = 'whsec_test_secret_for_clients';
const deliveryOf = (sentAt: string, deliveryId = 'dlv_01jd3k8e7f9g2h4j6k8m0n2p4q') => JSON.stringify({
  id: 'evt_01jd3k8e7f9g2h4j6k8m0n2p4q',
  event: 'detection.anomaly',
  created_at: '2026-11-21T20:40:00.000Z',
  stream_id: 'stream_01jd3k8e7f9g2h4j6k8m0n2p4q',
  incident_id: 'incident_01jd3k8e7f9g2h4j6k8m0n2p4q',
  detection: { type: 'person', subtype: 'unrecognized', confidence: 0.91, location: 'north_lobby', timestamp: '2026-11-21T20:39:59.000Z' },
  delivery_id: deliveryId,
  sent_at: sentAt,
});
const body = deliveryOf(new Date().toISOString());
const sign = (key: string, raw: string) => `sha256=${createHmac('sha256', key).update(raw).digest('hex')}`;
const vigil = new Vigil({ apiKey: 'vk_test_unused', baseUrl: 'http://127.0.0.1:9' });

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof SignatureVerificationError, `typed error, got ${String(err)}`);
    return err.code;
  }
  assert.fail('verification passed');
}

test('verify returns the event kind as type and the detection content as data (spec "Resources", webhook payload)', () => {
  const event = vigil.webhooks.verify(body, sign(secret, body), secret);
  assert.equal(event.type, 'detection.anomaly');
  assert.deepEqual(event.data, { type: 'person', subtype: 'unrecognized', confidence: 0.91, location: 'north_lobby', timestamp: '2026-11-21T20:39:59.000Z' });
  assert.equal((event.payload as { incidentId: string }).incidentId, 'incident_01jd3k8e7f9g2h4j6k8m0n2p4q');
  assert.deepEqual(verifyWebhook(Buffer.from(body), [sign('old-secret', body), sign(secret, body)], secret).type, 'detection.anomaly', 'rotation: any listed signature');
});

test('bad deliveries are typed errors with a code, never a crash', () => {
  const good = sign(secret, body);
  assert.equal(codeOf(() => vigil.webhooks.verify(body.replace('0.91', '0.99'), good, secret)), 'signature_mismatch');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, good, 'whsec_wrong')), 'signature_mismatch');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, undefined, secret)), 'signature_header_missing');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, '', secret)), 'signature_header_missing');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, good.slice('sha256='.length), secret)), 'signature_header_malformed');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, 'md5=abc', secret)), 'signature_header_malformed');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, `sha256=${'z'.repeat(64)}`, secret)), 'signature_header_malformed');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, 'sha256=abcd', secret)), 'signature_header_malformed');
  assert.equal(codeOf(() => vigil.webhooks.verify(JSON.parse(body), good, secret)), 'raw_body_required');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, good, '')), 'secret_missing');
  assert.equal(codeOf(() => vigil.webhooks.verify('not json', sign(secret, 'not json'), secret)), 'payload_not_json');
  const now = Date.parse(JSON.parse(body).sent_at);
  assert.equal(vigil.webhooks.verify(body, good, secret, { timestamp: new Date(now - 60_000).toISOString(), now }).type, 'detection.anomaly');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, good, secret, { timestamp: new Date(now - 20 * 60_000).toISOString(), now })), 'timestamp_outside_tolerance');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, good, secret, { timestamp: 'yesterday', now })), 'timestamp_malformed');
});

test('replays: a body sent outside the tolerance is refused by its signed sent_at, whatever the headers say', () => {
  const sentAt = '2026-11-21T20:40:00.000Z';
  const raw = deliveryOf(sentAt);
  const sig = sign(secret, raw);
  const at = Date.parse(sentAt);
  const event = vigil.webhooks.verify(raw, sig, secret, { now: at + 299_000 });
  assert.equal(event.deliveryId, 'dlv_01jd3k8e7f9g2h4j6k8m0n2p4q');
  assert.equal(event.sentAt, sentAt);
  assert.equal(codeOf(() => vigil.webhooks.verify(raw, sig, secret, { now: at + 301_000 })), 'timestamp_outside_tolerance', 'default tolerance 5 minutes');
  assert.equal(codeOf(() => vigil.webhooks.verify(raw, sig, secret, { now: at - 301_000 })), 'timestamp_outside_tolerance', 'from the future too');
  // an attacker who resends the old bytes with a fresh X-Service-Timestamp gains nothing: sent_at is signed
  assert.equal(codeOf(() => vigil.webhooks.verify(raw, sig, secret, { now: at + 3600_000, timestamp: new Date(at + 3600_000).toISOString() })), 'timestamp_outside_tolerance');
  assert.equal(vigil.webhooks.verify(raw, sig, secret, { now: at + 3600_000, toleranceS: 7200 }).type, 'detection.anomaly', 'configurable');
  assert.equal(vigil.webhooks.verify(raw, sig, secret, { now: at + 86_400_000, toleranceS: null }).type, 'detection.anomaly', 'null turns the age check off');
  // a body without sent_at (not from this service, or from before replay protection) cannot be aged
  const bare = JSON.stringify({ id: 'evt_x', event: 'alert.fired' });
  assert.equal(codeOf(() => vigil.webhooks.verify(bare, sign(secret, bare), secret)), 'sent_at_missing');
  const badTime = deliveryOf('not a time');
  assert.equal(codeOf(() => vigil.webhooks.verify(badTime, sign(secret, badTime), secret)), 'timestamp_malformed');
});

test('replays: with a seen-store a repeated delivery_id is refused; only verified deliveries are remembered', () => {
  let clock = Date.parse('2026-11-21T20:40:00.000Z');
  const cache = new DeliveryIdCache({ ttlS: 600, now: () => clock });
  const first = deliveryOf(new Date(clock).toISOString(), 'dlv_a');
  assert.equal(vigil.webhooks.verify(first, sign(secret, first), secret, { now: clock, seen: cache }).deliveryId, 'dlv_a');
  assert.equal(codeOf(() => vigil.webhooks.verify(first, sign(secret, first), secret, { now: clock + 1000, seen: cache })), 'delivery_replayed');
  // a redelivery by hand: same delivery id, new sent_at — refused as already processed
  const again = deliveryOf(new Date(clock + 60_000).toISOString(), 'dlv_a');
  assert.equal(codeOf(() => vigil.webhooks.verify(again, sign(secret, again), secret, { now: clock + 60_000, seen: cache })), 'delivery_replayed');
  // a forged body never enters the store
  const other = deliveryOf(new Date(clock).toISOString(), 'dlv_b');
  assert.equal(codeOf(() => vigil.webhooks.verify(other, sign('whsec_wrong', other), secret, { now: clock, seen: cache })), 'signature_mismatch');
  assert.equal(cache.has('dlv_b'), false);
  assert.equal(vigil.webhooks.verify(other, sign(secret, other), secret, { now: clock, seen: cache }).deliveryId, 'dlv_b');
  // ids are forgotten after ttlS, when their sent_at is refused anyway
  clock += 601_000;
  assert.equal(cache.has('dlv_a'), false);
  assert.equal(codeOf(() => vigil.webhooks.verify(first, sign(secret, first), secret, { now: clock, seen: cache })), 'timestamp_outside_tolerance');
  // any store: a Set, or a function
  const set = new Set<string>();
  const fresh = deliveryOf(new Date(clock).toISOString(), 'dlv_c');
  verifyWebhook(fresh, sign(secret, fresh), secret, { now: clock, seen: set });
  assert.ok(set.has('dlv_c'));
  assert.equal(codeOf(() => verifyWebhook(fresh, sign(secret, fresh), secret, { now: clock, seen: set })), 'delivery_replayed');
  const calls: string[] = [];
  const seenFn = (id: string) => (calls.includes(id) ? true : (calls.push(id), false));
  verifyWebhook(fresh, sign(secret, fresh), secret, { now: clock, seen: seenFn });
  assert.equal(codeOf(() => verifyWebhook(fresh, sign(secret, fresh), secret, { now: clock, seen: seenFn })), 'delivery_replayed');
  const noId = JSON.stringify({ id: 'evt_x', event: 'alert.fired', sent_at: new Date(clock).toISOString() });
  assert.equal(codeOf(() => verifyWebhook(noId, sign(secret, noId), secret, { now: clock, seen: set })), 'delivery_id_missing');
});

test('the household webhook secret is hex HMAC-SHA256(api key, "vigil-webhook-v1") (docs/design.md "Webhooks")', () => {
  const key = 'vk_live_abcdefghijklmnopqrstuvwxyz0123456789';
  assert.equal(Vigil.householdWebhookSecret(key), createHmac('sha256', key).update('vigil-webhook-v1').digest('hex'));
});

test('SSE frames split anywhere across chunks parse the same; comments are skipped; an unterminated frame is dropped', async () => {
  const text = ': ping\r\nid: 0\r\nevent: reply.delta\r\ndata: {"type":"reply.delta","delta":"Hi"}\r\n\r\nid: 1\nevent: action\ndata: {"a":\ndata: 1}\n\nevent: partial\ndata: {}';
  const bytes = new TextEncoder().encode(text);
  for (const size of [1, 2, 7, bytes.length]) {
    const chunks = async function* () {
      for (let i = 0; i < bytes.length; i += size) yield bytes.slice(i, i + size);
    };
    const events = [];
    for await (const e of parseEventStream(chunks())) events.push(e);
    assert.deepEqual(events, [
      { event: 'reply.delta', id: '0', data: '{"type":"reply.delta","delta":"Hi"}' },
      { event: 'action', id: '1', data: '{"a":\n1}' },
    ], `chunk size ${size}`);
  }
});

test('keys are renamed at every depth, values never; last_24h-style keys round-trip', () => {
  const wire = { responders_notified: 2, steps: [{ escalation_level: 1, note_text: 'keep_snake_value' }], last_24h: 3 };
  const js = camelizeKeys(wire);
  assert.deepEqual(js, { respondersNotified: 2, steps: [{ escalationLevel: 1, noteText: 'keep_snake_value' }], last_24h: 3 });
  assert.deepEqual(snakeizeKeys(js), wire);
});
