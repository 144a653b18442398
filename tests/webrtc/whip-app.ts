import type { AddressInfo } from 'node:net';
import { startVideoApp, type VideoApp } from '../video-integration/video-app.ts';

export interface WhipApp extends VideoApp {
  /** http://127.0.0.1:PORT: the app listens on a real socket, as WebRTC publishers need */
  base: string;
  key: { key: string; tenant_id: string };
  /** a live webrtc stream; its publish credentials with URLs on this server */
  createWebRtcStream(name: string, location: string): Promise<{ id: string; scene_id: string; token: string; whipUrl: string; publishUrl: string; body: any }>;
}

/** A serving Vigil with real video ingest listening on loopback, and an organization key. */
export async function startWhipApp(timers: { mediaTimeoutMs?: number; disconnectedGraceMs?: number } = {}): Promise<WhipApp> {
  // short health timers: a publisher that vanishes is noticed in seconds
  const v = await startVideoApp({ video: { whip: { mediaTimeoutMs: 3000, disconnectedGraceMs: 3000, connectTimeoutMs: 15_000, ...timers } } });
  await v.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(v.app.server.address() as AddressInfo).port}`;
  const key = await v.orgKey('Drone Patrol');
  return {
    ...v,
    base,
    key,
    async createWebRtcStream(name, location) {
      const res = await v.call(key, 'POST', '/v1/streams', { name, source_type: 'webrtc', source_url: 'webrtc://guard-phone', location });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      const p = res.body.publish;
      const onThisServer = (u: string) => base + new URL(u).pathname + new URL(u).search;
      return {
        id: res.body.id,
        scene_id: res.body.scene_id,
        token: p.token,
        whipUrl: onThisServer(p.whip_url),
        publishUrl: onThisServer(p.publish_url),
        body: res.body,
      };
    },
  };
}
