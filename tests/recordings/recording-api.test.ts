import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AdmZip from 'adm-zip';
import { loadConfig } from '../../src/platform/config/config.ts';
import { resolveFfmpegPath } from '../../src/ingest/video/index.ts';
import { verifyEvidence } from '../../src/org/recordings/index.ts';
import { bearer } from '../helpers/harness.ts';
import { startVideoApp, waitUntil, type VideoApp } from '../video-integration/video-app.ts';
import { encodeH264Camera } from '../fixtures-video/h264-camera.ts';

// Recordings through the HTTP API with real ffmpeg: an H.264 camera (a file played in real time,
// looping) is recorded by copying into 2 s segments; listings with gaps, clips with Range, the
// bad inputs, the audit trail, an incident's clip and its evidence bundle verified offline, and
// the verifier failing when one byte of the clip changes.
const ffmpeg = resolveFfmpegPath();
const CLI = fileURLToPath(new URL('../../bin/vigil.mjs', import.meta.url));
let dir: string;
let v: VideoApp;
let key: { key: string; tenant_id: string };
let streamId: string;
let createdAt: number;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-rec-api-'));
  const h264 = join(dir, 'h264.mp4');
  encodeH264Camera(h264, 20);
  const recordings = { ...loadConfig({}, {}).recordings, segmentSeconds: 2, preRollMs: 2000, postRollMs: 3000, maxClipMs: 600_000 };
  v = await startVideoApp({ config: { allowFileSources: true, recordings }, video: { camera: { detectFps: 1 } } });
  key = await v.orgKey('Evidence Org');
  const created = await v.call(key, 'POST', '/v1/streams', { name: 'Lobby camera', source_type: 'rtsp', source_url: `file://${h264}`, location: 'lobby' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  streamId = created.body.id;
  createdAt = Date.parse(created.body.created_at);
});

after(async () => {
  await v?.close();
  rmSync(dir, { recursive: true, force: true });
});

const iso = (ms: number) => new Date(ms).toISOString();
const listing = async (from: number, to: number) => (await v.call(key, 'GET', `/v1/streams/${streamId}/recordings?from=${iso(from)}&to=${iso(to)}`)).body;
const probe = (file: string, entries: string) =>
  execFileSync(ffmpeg.replace(/ffmpeg$/, 'ffprobe'), ['-v', 'error', '-show_entries', entries, '-of', 'default=nw=1:nk=1', file])
    .toString()
    .trim()
    .split('\n');

test('a camera is recorded in sealed segments; the listing shows them and the gap before recording began', async () => {
  const list = await waitUntil(
    'four segments',
    async () => {
      const l = await listing(createdAt - 60_000, Date.now() + 1000);
      return l.segments?.length >= 4 && l;
    },
    60_000,
  );
  const [first, second] = list.segments;
  assert.match(first.id, /^rseg_/);
  assert.equal(first.kind, 'video');
  assert.match(first.sha256, /^[0-9a-f]{64}$/);
  assert.equal(Date.parse(second.start), Date.parse(first.end), 'segments follow each other');
  // nothing was recorded in the minute before the stream existed
  assert.equal(list.gaps[0].from, iso(createdAt - 60_000));
  assert.ok(
    Date.parse(list.gaps[0].to) >= createdAt,
    `the gap ends ${list.gaps[0].to}, before the stream was created (${iso(createdAt)}); first segment ${first.start}–${first.end}`,
  );
  // each segment's SHA-256, stream, start and end are one audit entry, and the chain verifies
  const audit = (await v.call(key, 'GET', `/v1/audit?action=recording.segment_closed&limit=100`)).body;
  const entry = audit.data.find((e: any) => e.id === first.audit_id);
  assert.ok(entry, 'the segment has its audit entry');
  assert.deepEqual({ sha256: entry.data.sha256, start: entry.data.start, end: entry.data.end }, { sha256: first.sha256, start: first.start, end: first.end });
  assert.equal(entry.resource.id, streamId);
  assert.equal((await v.call(key, 'GET', '/v1/audit/verify')).body.valid, true);
});

test('a clip of any range is an MP4 with its index first, made by copying; Range gives 206 and a bad range 416', async () => {
  const list = await listing(createdAt - 60_000, Date.now());
  const from = Date.parse(list.segments[1].start) + 500;
  const to = Date.parse(list.segments[3].end) - 500;
  const url = `/v1/streams/${streamId}/clip?from=${iso(from)}&to=${iso(to)}`;
  const res = await v.app.inject({ method: 'GET', url, headers: bearer(key) });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'video/mp4');
  assert.equal(res.headers['accept-ranges'], 'bytes');
  const mp4 = res.rawPayload;
  assert.ok(mp4.indexOf('moov') < mp4.indexOf('mdat'), 'faststart: moov before mdat');
  const file = join(dir, 'clip.mp4');
  writeFileSync(file, mp4);
  const [codec, duration] = [probe(file, 'stream=codec_name')[0], Number(probe(file, 'format=duration')[0])];
  assert.equal(codec, 'h264');
  // cut at keyframes (1 s apart here): within a second of the asked range at each end
  assert.ok(Math.abs(duration - (to - from) / 1000) <= 2, `clip of ${duration} s for ${(to - from) / 1000} s asked`);

  const part = await v.app.inject({ method: 'GET', url, headers: { ...bearer(key), range: 'bytes=100-199' } });
  assert.equal(part.statusCode, 206);
  assert.equal(part.headers['content-range'], `bytes 100-199/${mp4.length}`);
  assert.deepEqual(part.rawPayload, mp4.subarray(100, 200));
  const beyond = await v.app.inject({ method: 'GET', url, headers: { ...bearer(key), range: `bytes=${mp4.length + 10}-` } });
  assert.equal(beyond.statusCode, 416);
  assert.equal(beyond.json().code, 'range_not_satisfiable');
  assert.equal(beyond.headers['content-range'], `bytes */${mp4.length}`);
});

test('bad ranges are 400 naming the parameter; a range without recording is 404 with the nearest recorded times; sandbox streams have no video', async () => {
  const now = Date.now();
  const reversed = await v.call(key, 'GET', `/v1/streams/${streamId}/clip?from=${iso(now)}&to=${iso(now - 1000)}`);
  assert.equal(reversed.status, 400);
  assert.equal(reversed.body.param, 'from');
  const tooLong = await v.call(key, 'GET', `/v1/streams/${streamId}/recordings?from=${iso(now - 700_000)}&to=${iso(now)}`);
  assert.equal(tooLong.status, 400);
  assert.equal(tooLong.body.param, 'to');
  const notADate = await v.call(key, 'GET', `/v1/streams/${streamId}/clip?from=yesterday&to=${iso(now)}`);
  assert.equal(notADate.status, 400);
  assert.equal(notADate.body.param, 'from');

  const later = await v.call(key, 'GET', `/v1/streams/${streamId}/clip?from=${iso(now + 3600_000)}&to=${iso(now + 3660_000)}`);
  assert.equal(later.status, 404);
  assert.equal(later.body.code, 'no_recording');
  assert.ok(Date.parse(later.body.nearest_before) <= now + 5000);
  assert.equal(later.body.nearest_after, null);

  const sandbox = await v.call(key, 'POST', '/v1/streams', {
    name: 'Sim',
    source_type: 'sandbox',
    source_url: 'sandbox://lobby?scenario=lobby&seed=1',
    location: 'sim',
  });
  assert.equal(sandbox.status, 201, JSON.stringify(sandbox.body));
  for (const path of ['recordings', 'clip']) {
    const r = await v.call(key, 'GET', `/v1/streams/${sandbox.body.id}/${path}?from=${iso(now - 60_000)}&to=${iso(now)}`);
    assert.equal(r.status, 404);
    assert.equal(r.body.code, 'stream_has_no_video');
  }
});

test('an incident has a clip and an evidence bundle that verifies offline and fails naming the file when one byte of the clip changes', async () => {
  const incident = (await v.call(key, 'POST', '/v1/incidents', { stream_id: streamId, title: 'Door forced', severity: 'high' })).body;
  const at = Date.parse(incident.created_at);
  // its window (2 s before to 3 s after) is recorded once a segment ends after it
  await waitUntil(
    'the incident window recorded',
    async () => (await listing(at - 60_000, Date.now())).segments.some((s: any) => Date.parse(s.end) >= at + 3000),
    30_000,
  );
  const clip = await v.app.inject({ method: 'GET', url: `/v1/incidents/${incident.id}/clip`, headers: bearer(key) });
  assert.equal(clip.statusCode, 200, clip.body);
  assert.equal(clip.headers['content-type'], 'video/mp4');

  const res = await v.app.inject({ method: 'GET', url: `/v1/incidents/${incident.id}/evidence`, headers: bearer(key) });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'application/zip');
  const bundle = res.rawPayload;
  const names = new AdmZip(bundle).getEntries().map((e) => e.entryName);
  for (const n of ['manifest.json', 'incident.json', 'clip.mp4', 'audit/chain.ndjson', 'audit/checkpoint.json']) assert.ok(names.includes(n), n);
  assert.ok(names.some((n) => n.startsWith('segments/')));

  const keyFile = join(v.ctx.config.dataDir, 'audit-checkpoint.key');
  const checkpointKey = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'hex');
  const report = verifyEvidence(bundle, { checkpointKey });
  assert.equal(report.valid, true, JSON.stringify(report.checks, null, 1));
  const said = report.checks.map((c) => c.text).join('\n');
  assert.match(said, /carries the server's signature/);
  assert.match(said, /byte for byte those sealed in the audit trail/);
  assert.match(said, /manifest\.json is the one recorded by audit entry aud_/);
  // without the key the signature is said to be unchecked, not proven
  assert.match(verifyEvidence(bundle).checks.find((c) => c.note && /signature/.test(c.text))!.text, /not checked/);

  // the export is audited
  const exported = (await v.call(key, 'GET', `/v1/audit?action=incident.evidence_exported`)).body.data;
  assert.equal(exported[0].resource.id, incident.id);
  assert.equal(exported[0].data.manifest_sha256, res.headers['x-manifest-sha256']);

  // one byte of the clip changed
  const zip = new AdmZip(bundle);
  const clipBytes = zip.getEntry('clip.mp4')!.getData();
  clipBytes[Math.floor(clipBytes.length / 2)] ^= 0xff;
  zip.updateFile('clip.mp4', clipBytes);
  const tampered = zip.toBuffer();
  const bad = verifyEvidence(tampered, { checkpointKey });
  assert.equal(bad.valid, false);
  assert.deepEqual(
    bad.checks.filter((c) => !c.ok).map((c) => c.text.split(':')[0]),
    ['clip.mp4'],
  );

  // the same from the command line, offline: exit 0, then non-zero naming the file
  const good = join(dir, 'bundle.zip');
  const badFile = join(dir, 'tampered.zip');
  writeFileSync(good, bundle);
  writeFileSync(badFile, tampered);
  const ok = spawnSync(process.execPath, [CLI, 'verify-evidence', good, '--key-file', keyFile], { encoding: 'utf8' });
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /the bundle verifies/);
  const fails = spawnSync(process.execPath, [CLI, 'verify-evidence', badFile, '--key-file', keyFile], { encoding: 'utf8' });
  assert.equal(fails.status, 1, fails.stdout + fails.stderr);
  assert.match(fails.stdout, /FAILED {2}clip\.mp4: SHA-256 [0-9a-f]{64} differs from the manifest's/);

  // a segment changed is named by the manifest and by its audit entry
  const seg = new AdmZip(bundle);
  const segName = seg
    .getEntries()
    .map((e) => e.entryName)
    .find((n) => n.startsWith('segments/'))!;
  const segBytes = seg.getEntry(segName)!.getData();
  segBytes[segBytes.length - 1] ^= 0x01;
  seg.updateFile(segName, segBytes);
  const segReport = verifyEvidence(seg.toBuffer(), { checkpointKey });
  assert.equal(segReport.valid, false);
  assert.ok(segReport.checks.some((c) => !c.ok && c.text.startsWith(segName) && /sealed by audit entry aud_/.test(c.text)));
});

test('an operator deletes a range of the recording, audited; segments an open incident holds are kept', async () => {
  const list = await listing(createdAt - 60_000, Date.now());
  const first = list.segments[0];
  const del = await v.call(key, 'DELETE', `/v1/streams/${streamId}/recordings?from=${first.start}&to=${first.end}`);
  assert.equal(del.status, 200, JSON.stringify(del.body));
  assert.deepEqual([del.body.deleted, del.body.kept_held], [1, 0]);
  assert.equal(
    (await listing(createdAt - 60_000, Date.now())).segments.some((s: any) => s.id === first.id),
    false,
  );
  const audited = (await v.call(key, 'GET', '/v1/audit?action=recording.range_deleted')).body.data[0];
  assert.deepEqual(audited.data.segments, [first.id]);
  // the incident opened in the previous test is open: its window stays
  const incident = (await v.call(key, 'GET', '/v1/incidents?limit=1')).body.data[0];
  const at = Date.parse(incident.created_at);
  const kept = await v.call(key, 'DELETE', `/v1/streams/${streamId}/recordings?from=${iso(at - 1000)}&to=${iso(at + 1000)}`);
  assert.equal(kept.status, 200);
  assert.ok(kept.body.kept_held >= 1 && kept.body.deleted === 0, JSON.stringify(kept.body));
});
