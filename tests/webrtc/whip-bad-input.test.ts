import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WhipTestPublisher } from '../fixtures-video/whip-publisher.ts';
import { startWhipApp, type WhipApp } from './whip-app.ts';

// Every refusal of the WHIP endpoint is a problem+json naming what is wrong, and leaves nothing
// behind: no session, no peer connection, the stream still free for a good publisher.
let v: WhipApp;
let s: Awaited<ReturnType<WhipApp['createWebRtcStream']>>;
let goodOffer: string;
const publishers: WhipTestPublisher[] = [];

before(async () => {
  v = await startWhipApp();
  s = await v.createWebRtcStream('Drone', 'east_fence');
  const p = WhipTestPublisher.create({ whipUrl: s.whipUrl, token: s.token, codec: 'VP8' });
  publishers.push(p);
  goodOffer = await p.offer();
});

after(async () => {
  await Promise.allSettled(publishers.map((p) => p.vanish()));
  await v?.close();
});

const post = (body: string, opts: { token?: string | null; type?: string; stream?: string } = {}) =>
  fetch(`${v.base}/v1/streams/${opts.stream ?? s.id}/whip`, {
    method: 'POST',
    headers: {
      'content-type': opts.type ?? 'application/sdp',
      ...(opts.token === null ? {} : { authorization: `Bearer ${opts.token ?? s.token}` }),
    },
    body,
  });

async function expectProblem(res: Response, status: number, code: string, param?: string) {
  assert.equal(res.status, status, `${code}: got ${res.status}`);
  assert.match(res.headers.get('content-type')!, /^application\/problem\+json/);
  const body = await res.json();
  assert.equal(body.code, code);
  assert.equal(body.status, status);
  assert.ok(body.detail && body.detail.length > 10, 'the detail says what is wrong');
  if (param) assert.equal(body.param, param);
  // nothing half-open: no session for the stream
  assert.equal(v.ctx.whip.sessionStats(s.id), null);
  return body;
}

test('malformed SDP, an offer without video and one with only unsupported codecs are refused, naming the body', async () => {
  await expectProblem(await post('hello, I am not SDP'), 400, 'invalid_sdp', 'body');
  await expectProblem(await post('v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n'), 400, 'invalid_sdp', 'body');
  const noIce = goodOffer.replace(/^a=ice-(ufrag|pwd):.*\r?\n/gm, '');
  assert.match((await expectProblem(await post(noIce), 400, 'invalid_sdp', 'body')).detail, /ICE credentials/);
  await expectProblem(await post(goodOffer.replace(/m=video/g, 'm=audio')), 422, 'no_video_in_offer', 'body');
  const vp9Only = goodOffer.replace(/VP8\/90000/g, 'VP9/90000');
  const unsupported = await expectProblem(await post(vp9Only), 422, 'unsupported_codec', 'body');
  assert.match(unsupported.detail, /VP9/);
  assert.deepEqual(unsupported.supported_codecs, ['VP8', 'H264']);
  await expectProblem(await post(goodOffer, { type: 'application/json' }), 415, 'unsupported_media_type', 'Content-Type');
});

test('a missing, wrong, API-key or revoked token is 401; a rotated token works and the old one does not', async () => {
  await expectProblem(await post(goodOffer, { token: null }), 401, 'invalid_publish_token', 'Authorization');
  await expectProblem(await post(goodOffer, { token: 'vpt_' + 'x'.repeat(43) }), 401, 'invalid_publish_token', 'Authorization');
  const apiKey = await expectProblem(await post(goodOffer, { token: v.key.key }), 401, 'invalid_publish_token', 'Authorization');
  assert.match(apiKey.detail, /never an API key/);
  // another stream's token does not open this one, and an unknown stream answers the same
  const other = await v.createWebRtcStream('Other', 'east_fence');
  await expectProblem(await post(goodOffer, { token: other.token }), 401, 'invalid_publish_token');
  await expectProblem(await post(goodOffer, { stream: 'stream_01jzzzzzzzzzzzzzzzzzzzzzzz' }), 401, 'invalid_publish_token');

  const revoked = await v.call(v.key, 'DELETE', `/v1/streams/${s.id}/publish-token`);
  assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
  assert.deepEqual(revoked.body, { object: 'publish_token', stream_id: s.id, revoked: true, ended_session: false });
  await expectProblem(await post(goodOffer), 401, 'publish_token_revoked', 'Authorization');

  const rotated = await v.call(v.key, 'POST', `/v1/streams/${s.id}/publish-token`);
  assert.equal(rotated.status, 201, JSON.stringify(rotated.body));
  assert.notEqual(rotated.body.token, s.token);
  assert.match(rotated.body.whip_url, new RegExp(`/v1/streams/${s.id}/whip$`));
  await expectProblem(await post(goodOffer), 401, 'invalid_publish_token');
  s = { ...s, token: rotated.body.token };
  // the new token gets past authentication (to the SDP check)
  await expectProblem(await post('not sdp'), 400, 'invalid_sdp');

  // token management needs the API key and a webrtc stream; both rotations and revocations are audited
  const rtsp = await v.call(v.key, 'POST', '/v1/streams', { name: 'Cam', source_type: 'mobile', source_url: 'mobile://desk', location: 'east_fence' });
  const notWebrtc = await v.call(v.key, 'POST', `/v1/streams/${rtsp.body.id}/publish-token`);
  assert.equal(notWebrtc.status, 409);
  assert.equal(notWebrtc.body.code, 'stream_not_webrtc');
  assert.equal((await fetch(`${v.base}/v1/streams/${s.id}/publish-token`, { method: 'POST', headers: { authorization: `Bearer ${s.token}` } })).status, 401);
  const audit = await v.call(v.key, 'GET', `/v1/audit?resource_id=${s.id}&limit=100`);
  const actions = audit.body.data.map((a: { action: string }) => a.action);
  assert.ok(actions.includes('stream.publish_token_revoked') && actions.includes('stream.publish_token_rotated'), actions.join());
  assert.ok(!JSON.stringify(audit.body).includes(s.token), 'the token itself is never in the audit trail');
});

test('DELETE or PATCH of an unknown session is 404; after all the refusals a good publisher is accepted', async () => {
  const unknown = await fetch(`${v.base}/v1/streams/${s.id}/whip/whip_01jzzzzzzzzzzzzzzzzzzzzzzz`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${s.token}` },
  });
  await expectProblem(unknown, 404, 'not_found');
  const patch = await fetch(`${v.base}/v1/streams/${s.id}/whip/whip_01jzzzzzzzzzzzzzzzzzzzzzzz`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/trickle-ice-sdpfrag', 'if-match': '*' },
    body: 'a=mid:0\r\na=end-of-candidates\r\n',
  });
  await expectProblem(patch, 404, 'not_found');

  // nothing was left half-open: the stream takes a publisher, and its token revocation cuts it off
  const p = WhipTestPublisher.create({ whipUrl: s.whipUrl, token: s.token, codec: 'VP8' });
  publishers.push(p);
  const ok = await p.publish();
  assert.equal(ok.status, 201, await ok.clone().text());
  assert.ok(v.ctx.whip.sessionStats(s.id));
  const revoked = await v.call(v.key, 'DELETE', `/v1/streams/${s.id}/publish-token`);
  assert.equal(revoked.body.ended_session, true);
  assert.equal(v.ctx.whip.sessionStats(s.id), null);
  const stream = (await v.call(v.key, 'GET', `/v1/streams/${s.id}`)).body;
  assert.ok(['offline', 'connecting'].includes(stream.status), stream.status);
});

test('an offer with audio as well (as OBS and phones send) is accepted; the answer receives the video', async () => {
  // the previous test revoked the token: a rotation issues a working one
  const rotated = await v.call(v.key, 'POST', `/v1/streams/${s.id}/publish-token`);
  assert.equal(rotated.status, 201);
  s = { ...s, token: rotated.body.token };
  const p = WhipTestPublisher.create({ whipUrl: s.whipUrl, token: s.token, codec: 'H264', withAudio: true });
  publishers.push(p);
  const offer = await p.offer();
  assert.match(offer, /m=audio[\s\S]*m=video/);
  const res = await post(offer);
  assert.equal(res.status, 201, await res.clone().text());
  const answer = await res.text();
  assert.match(answer, /m=video[^\n]*\r?\n(?:[^\n]*\n)*?a=recvonly/);
  assert.match(answer, /a=rtpmap:\d+ H264\/90000/);
  const del = await fetch(new URL(res.headers.get('location')!, v.base), { method: 'DELETE', headers: { authorization: `Bearer ${s.token}` } });
  assert.equal(del.status, 200);
  assert.equal(v.ctx.whip.sessionStats(s.id), null);
});

test('a webrtc stream made with a test key is a sandbox stream and has no publish token', async () => {
  const testKey = await v.ctx.keys.createKey({
    tenantKind: 'organization',
    tenantName: 'Sandbox Org',
    mode: 'test',
    capabilities: 'all',
    locations: null,
    rateLimitPerMinute: 100_000,
  });
  const res = await v.call(testKey, 'POST', '/v1/streams', { name: 'Sim', source_type: 'webrtc', source_url: 'webrtc://sim', location: 'lab' });
  assert.equal(res.status, 201);
  assert.equal(res.body.sandbox, true);
  assert.equal(res.body.publish, undefined);
});
