import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/platform/config/config.ts';

test('VIGIL_ICE_SERVERS: none by default (LAN), a comma list of STUN URLs, or JSON with TURN credentials', () => {
  assert.deepEqual(loadConfig({}, {}).iceServers, []);
  assert.deepEqual(loadConfig({}, { VIGIL_ICE_SERVERS: 'stun:stun.example.org:3478, stun:10.0.0.2' }).iceServers, [
    { urls: ['stun:stun.example.org:3478'] },
    { urls: ['stun:10.0.0.2'] },
  ]);
  const json = '[{"urls":["turn:turn.example.org:3478?transport=udp","turns:turn.example.org:5349"],"username":"vigil","credential":"s3cret"}]';
  assert.deepEqual(loadConfig({}, { VIGIL_ICE_SERVERS: json }).iceServers, [
    { urls: ['turn:turn.example.org:3478?transport=udp', 'turns:turn.example.org:5349'], username: 'vigil', credential: 's3cret' },
  ]);
});

test('VIGIL_ICE_SERVERS that is not usable stops the server at start with the reason', () => {
  const bad: Array<[string, RegExp]> = [
    ['[{"urls":', /not valid JSON/],
    ['http://stun.example.org', /is not a stun:, stuns:, turn: or turns: URL/],
    ['turn:turn.example.org', /needs "username" and "credential"/],
    ['[{"urls":[]}]', /urls must be/],
    ['[{"urls":"stun:x","username":5}]', /username must be a string/],
  ];
  for (const [value, reason] of bad) {
    assert.throws(
      () => loadConfig({}, { VIGIL_ICE_SERVERS: value }),
      (err: Error) => err.message.startsWith('config: VIGIL_ICE_SERVERS') && reason.test(err.message),
      value,
    );
  }
});
