import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateSourceUrl } from '../../src/ingest/video/index.ts';

test('camera addresses ffmpeg can read are accepted', () => {
  for (const url of [
    'rtsp://10.0.0.5:554/stream1',
    'rtsps://cam.example/live',
    'http://cam.local/video.mjpg',
    'https://cdn.example/live/index.m3u8',
    'rtsp://user:pw@10.0.0.5/ch1',
  ]) {
    assert.equal(validateSourceUrl(url, { allowFileSources: false }).ok, true, url);
  }
});

test('unsupported schemes and malformed URLs are refused with a reason', () => {
  for (const url of ['ftp://cam.local/x', 'javascript:alert(1)', 'udp://239.0.0.1:1234', 'not a url', 'rtsp://', 'concat:/etc/passwd']) {
    const check = validateSourceUrl(url, { allowFileSources: true });
    assert.equal(check.ok, false, url);
    if (!check.ok) assert.ok(check.reason.length > 0);
  }
});

test('file:// sources read the server disk, so they need the opt-in', () => {
  const refused = validateSourceUrl('file:///srv/demo.avi', { allowFileSources: false });
  assert.equal(refused.ok, false);
  if (!refused.ok) assert.match(refused.reason, /file/);
  assert.equal(validateSourceUrl('file:///srv/demo.avi', { allowFileSources: true }).ok, true);
  assert.equal(validateSourceUrl('file://otherhost/srv/demo.avi', { allowFileSources: true }).ok, false);
});
