import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { SignatureVerificationError, Vigil, verifyWebhook } from '../../clients/node/src/index.js';
import { parseEventStream } from '../../clients/node/src/core/sse.js';
import { camelizeKeys, snakeizeKeys } from '../../clients/node/src/core/casing.js';

// A detection.anomaly body as the spec shows it, signed by this test with node:crypto — not by the client.
const secret = 'whsec_test_secret_for_clients';
const body = JSON.stringify({
  id: 'evt_01jd3k8e7f9g2h4j6k8m0n2p4q',
  event: 'detection.anomaly',
  created_at: '2026-11-21T20:40:00.000Z',
  stream_id: 'stream_01jd3k8e7f9g2h4j6k8m0n2p4q',
  incident_id: 'incident_01jd3k8e7f9g2h4j6k8m0n2p4q',
  detection: { type: 'person', subtype: 'unrecognized', confidence: 0.91, location: 'north_lobby', timestamp: '2026-11-21T20:39:59.000Z' },
});
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
  const now = Date.parse('2026-11-21T20:40:00.000Z');
  assert.equal(vigil.webhooks.verify(body, good, secret, { timestamp: '2026-11-21T20:39:00.000Z', now }).type, 'detection.anomaly');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, good, secret, { timestamp: '2026-11-21T20:20:00.000Z', now })), 'timestamp_outside_tolerance');
  assert.equal(codeOf(() => vigil.webhooks.verify(body, good, secret, { timestamp: 'yesterday', now })), 'timestamp_malformed');
});

test('the household webhook secret is hex HMAC-SHA256(api key, "vigil-webhook-v1") (DESIGN.md "Webhooks")', () => {
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
