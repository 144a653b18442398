import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSandboxUrl } from '../../src/ingest/sandbox/scenarios.ts';

test('parseSandboxUrl reads the scenario from ?scenario= or the host, and the seed', () => {
  assert.deepEqual(parseSandboxUrl('sandbox://lobby?scenario=after_hours_intrusion&seed=7'), { ok: true, scenario: 'after_hours_intrusion', seed: 7 });
  assert.deepEqual(parseSandboxUrl('sandbox://lobby'), { ok: true, scenario: 'lobby', seed: 1 });
  assert.deepEqual(parseSandboxUrl('sandbox://front-door-cam?scenario=home_front_porch'), { ok: true, scenario: 'home_front_porch', seed: 1 });
  assert.deepEqual(parseSandboxUrl('sandbox://crowd_surge?seed=-3'), { ok: true, scenario: 'crowd_surge', seed: -3 });
  assert.deepEqual(parseSandboxUrl('sandbox://parking_lot/anything?seed=0&extra=1'), { ok: true, scenario: 'parking_lot', seed: 0 });
});

test('parseSandboxUrl names the bad part', () => {
  const fail = (url: string) => {
    const r = parseSandboxUrl(url);
    assert.equal(r.ok, false, url);
    return (r as { reason: string }).reason;
  };
  assert.match(fail('rtsp://10.0.0.5/stream'), /scheme must be sandbox:\/\/ \(got rtsp:\/\/\)/);
  assert.match(fail('https://lobby?scenario=lobby'), /scheme/);
  assert.match(fail('not a url'), /not a URL/);
  assert.match(fail('sandbox://lobby?scenario=moon_landing'), /unknown scenario "moon_landing".*after_hours_intrusion/);
  assert.match(fail('sandbox://my-cam'), /"my-cam" is not a scenario/);
  assert.match(fail('sandbox://lobby?seed=abc'), /seed must be an integer \(got "abc"\)/);
  assert.match(fail('sandbox://lobby?seed=1.5'), /seed/);
  assert.match(fail('sandbox://lobby?seed='), /seed/);
  assert.match(fail('sandbox://lobby?seed=99999999999999999999'), /seed/);
});
