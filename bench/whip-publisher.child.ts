/**
 * A WHIP publisher in its own process for bench/whip.bench.ts, so the bench process's CPU time
 * is the server side only. Args: whipUrl token codec width height clip [copy]. Prints "published" once
 * the server answered 201, then runs until killed.
 */
import { WhipTestPublisher } from '../tests/fixtures-video/whip-publisher.ts';

const [whipUrl, token, codec, width, height, clip, copy] = process.argv.slice(2);
const p = WhipTestPublisher.create({
  whipUrl,
  token,
  codec: codec as 'VP8' | 'H264',
  size: { width: Number(width), height: Number(height) },
  video: clip,
  copy: copy === 'copy',
});
const res = await p.publish();
if (res.status !== 201) {
  console.error(`publish failed: ${res.status} ${await res.text()}`);
  process.exit(1);
}
console.log('published');
process.on('SIGTERM', () => void p.vanish().finally(() => process.exit(0)));
