import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, createPublicKey, randomBytes, verify } from 'node:crypto';
import webpush from 'web-push';
import { buildPushRequest, vapidAuthorization } from '../../src/platform/outbox/push-sender.ts';

// The VAPID token is signed once per push service and reused until an hour before it expires
// (docs/decisions.md, "Fan-out on SQLite: where the time went"); each is a valid ES256 JWT.
const vapid = webpush.generateVAPIDKeys();
const SUBJECT = 'mailto:alerts@vigil.test';

function claimsOf(authorization: string): { aud: string; exp: number; sub: string } {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(authorization);
  assert.ok(m, authorization);
  const [h, p, s] = m[1].split('.');
  assert.equal(m[2], vapid.publicKey);
  const point = Buffer.from(vapid.publicKey, 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  assert.ok(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')), 'signed with the VAPID key');
  return JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
}

test('one token per push service, reused while it has over an hour left, then renewed', () => {
  // web-push refuses an expiry more than 24 h from the real now
  const t0 = Math.floor(Date.now() / 1000);
  const a = vapidAuthorization('https://push.one.example', SUBJECT, vapid, t0);
  assert.deepEqual(claimsOf(a), { aud: 'https://push.one.example', exp: t0 + 12 * 3600, sub: SUBJECT });
  assert.equal(vapidAuthorization('https://push.one.example', SUBJECT, vapid, t0 + 10 * 3600), a, 'reused with 2 h left');
  const b = vapidAuthorization('https://push.two.example', SUBJECT, vapid, t0);
  assert.notEqual(b, a);
  assert.equal(claimsOf(b).aud, 'https://push.two.example');
  const renewed = vapidAuthorization('https://push.one.example', SUBJECT, vapid, t0 + 11 * 3600 + 1);
  assert.notEqual(renewed, a, 'renewed with less than an hour left');
  assert.equal(claimsOf(renewed).exp, t0 + 23 * 3600 + 1);
});

test('a push request carries the token for its endpoint’s origin', () => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const sub = { endpoint: 'https://push.three.example:8443/push/abc', p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
  const opts = { vapid, subject: SUBJECT, ttlSeconds: 60, urgency: 'high' as const, topic: 't' };
  const one = buildPushRequest(sub, '{"title":"x"}', opts);
  const two = buildPushRequest({ ...sub, endpoint: 'https://push.three.example:8443/push/def' }, '{"title":"y"}', opts);
  assert.equal(one.headers.Authorization, two.headers.Authorization);
  const claims = claimsOf(one.headers.Authorization);
  assert.equal(claims.aud, 'https://push.three.example:8443');
  assert.ok(claims.exp > Date.now() / 1000 + 3600 && claims.exp <= Date.now() / 1000 + 12 * 3600 + 5);
  assert.equal(one.headers['Content-Encoding'], 'aes128gcm');
  assert.notDeepEqual(one.body, two.body);
});
