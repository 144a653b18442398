/**
 * WebRTC ingest speed: WHIP offer → first decoded frame latency, decoded
 * frames/s sustained per published stream, and CPU per published 720p stream (server side:
 * werift's ICE/DTLS/SRTP and depacketizing in this process, plus the stream's ffmpeg decoder),
 * measured in the same run as the RTSP path (ffmpeg pulling a loopback RTSP camera), which is the
 * limit the WHIP path is compared with. Publishers run in child processes (their encoders are
 * not counted). The detector is left out on purpose (a detector that finds nothing): its cost
 * is the same for every source and is measured by bench/video.bench.ts.
 * Writes bench/results/whip.json.
 *   node --import tsx bench/whip.bench.ts   (BENCH_TRIAL_MS=15000 per trial, BENCH_LATENCY_RUNS=5)
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveFfmpegPath, startVideoIngest, type Detector, type IngestHandle } from '../src/ingest/video/index.ts';
import { createWebRtcIngest, type WebRtcIngestHandle } from '../src/org/webrtc/webrtc-ingest.ts';
import { checkWhipOffer } from '../src/org/webrtc/sdp-offer.ts';
import { WhipSession } from '../src/org/webrtc/whip-session.ts';
import { RtspTestCamera } from '../tests/fixtures-video/rtsp-camera.ts';
import { figure, writeResult, type Figure } from './machine.ts';

const VTEST = fileURLToPath(new URL('../../shared/fixtures/vtest.avi', import.meta.url));
const CHILD = fileURLToPath(new URL('./whip-publisher.child.ts', import.meta.url));
const TRIAL_MS = Number(process.env.BENCH_TRIAL_MS ?? 15_000);
const LATENCY_RUNS = Number(process.env.BENCH_LATENCY_RUNS ?? 5);
const CLK_TCK = 100; // Linux USER_HZ: /proc/<pid>/stat times are in 1/100 s
const round1 = (v: number) => Math.round(v * 10) / 10;
const percentile = (values: number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const nothing: Detector = { detect: async () => [] };
const ffmpeg = resolveFfmpegPath();

/** CPU seconds of this process's ffmpeg children (the decoders), from /proc. */
function childFfmpegCpuSeconds(): number {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (comm === 'ffmpeg' && Number(f[1]) === process.pid) total += (Number(f[11]) + Number(f[12])) / CLK_TCK;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** A minimal WHIP endpoint around WhipSession: each POST feeds a fresh webrtc ingest. */
class BenchWhipServer {
  readonly ingests: WebRtcIngestHandle[] = [];
  readonly sessions: WhipSession[] = [];
  firstFrameAt: number[] = [];
  private server: Server;
  constructor() {
    // void: a request listener's promise has nobody to return to (a failure is an unhandled rejection)
    this.server = createServer(
      (req, res) =>
        void (async () => {
          let body = '';
          for await (const c of req) body += c;
          checkWhipOffer(body);
          const i = this.ingests.length;
          this.firstFrameAt[i] = NaN;
          const ingest = createWebRtcIngest({ streamId: `stream_bench_${i}`, detector: nothing, onDetections: () => {}, onStatus: () => {} });
          const sink = {
            pushFrame: (f: Parameters<WebRtcIngestHandle['pushFrame']>[0]) => {
              if (Number.isNaN(this.firstFrameAt[i])) this.firstFrameAt[i] = performance.now();
              ingest.pushFrame(f);
            },
            interrupted: (r: string) => ingest.interrupted(r),
          };
          const { session, answer } = await WhipSession.open({
            id: `whip_bench_${i}`,
            offer: body,
            iceServers: [],
            ffmpegPath: ffmpeg,
            sink,
            onEnded: () => {},
          });
          this.ingests.push(ingest);
          this.sessions.push(session);
          res.writeHead(201, { 'content-type': 'application/sdp', location: `/whip/${i}` }).end(answer);
        })(),
    );
  }
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/whip`;
  }
  async stopSessions(): Promise<void> {
    await Promise.all(this.sessions.map((s) => s.close()));
    await Promise.all(this.ingests.map((i) => i.stop()));
    this.sessions.length = 0;
    this.ingests.length = 0;
    this.firstFrameAt = [];
  }
  close(): void {
    this.server.close();
  }
}

function startPublisher(url: string, codec: string, width: number, height: number, clip: string): Promise<{ child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, 'bench', codec, String(width), String(height), clip, 'copy'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    // the latency clock is the server's (from the POST it received), not the child's start-up
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('published')) resolve({ child });
    });
    child.once('exit', (code) => reject(new Error(`publisher exited with ${code}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

/** Offer → first decoded frame: the server's clock from the POST it received. */
async function measureLatency(server: BenchWhipServer, url: string, codec: string, clip: string) {
  const ms: number[] = [];
  for (let run = 0; run < LATENCY_RUNS; run++) {
    const { child } = await startPublisher(url, codec, 1280, 720, clip);
    const deadline = Date.now() + 20_000;
    while (!server.sessions[0]?.stats().first_frame_ms && Date.now() < deadline) await sleep(20);
    const first = server.sessions[0]?.stats().first_frame_ms;
    if (first) ms.push(first);
    await stopChild(child);
    await server.stopSessions();
  }
  return { runs: ms.length, ms_p50: Math.round(percentile(ms, 50)), ms_max: Math.round(Math.max(...ms)) };
}

interface Load {
  streams: number;
  /** decoded frames per second handed to the pipeline, per stream (the detect rate is 5) */
  decoded_fps_mean: number;
  decoded_fps_min: number;
  /** encoded frames per second received per stream (WHIP only) */
  received_fps_mean?: number;
  /** publishes that never delivered video during the trial (ICE/DTLS not completing on a loaded machine) */
  streams_without_video?: number;
  /** CPU per stream, % of one core: the node process (WHIP: werift) and the stream's ffmpeg */
  cpu_node_pct_per_stream: number;
  cpu_ffmpeg_pct_per_stream: number;
  cpu_total_pct_per_stream: number;
}

async function measureWhipLoad(server: BenchWhipServer, url: string, n: number, codec: string, clip: string): Promise<Load> {
  const children = await Promise.all(Array.from({ length: n }, () => startPublisher(url, codec, 1280, 720, clip)));
  const deadline = Date.now() + 30_000;
  while (server.ingests.some((i) => i.stats().frames_in === 0) && Date.now() < deadline) await sleep(200);
  await sleep(3000);
  const before = {
    stats: server.ingests.map((i) => i.stats().frames_in),
    frames: server.sessions.map((s) => s.stats().frames),
    cpu: process.cpuUsage(),
    ff: childFfmpegCpuSeconds(),
  };
  await sleep(TRIAL_MS);
  const cpu = process.cpuUsage(before.cpu);
  const ff = childFfmpegCpuSeconds() - before.ff;
  const secs = TRIAL_MS / 1000;
  const decoded = server.ingests.map((i, k) => (i.stats().frames_in - before.stats[k]) / secs);
  const received = server.sessions.map((s, k) => (s.stats().frames - before.frames[k]) / secs);
  await Promise.all(children.map((c) => stopChild(c.child)));
  await server.stopSessions();
  const nodePct = ((cpu.user + cpu.system) / 1e6 / secs) * 100;
  const ffPct = (ff / secs) * 100;
  return {
    streams: n,
    decoded_fps_mean: round1(decoded.reduce((a, b) => a + b, 0) / n),
    decoded_fps_min: round1(Math.min(...decoded)),
    received_fps_mean: round1(received.reduce((a, b) => a + b, 0) / n),
    streams_without_video: received.filter((r) => r === 0).length,
    cpu_node_pct_per_stream: round1(nodePct / n),
    cpu_ffmpeg_pct_per_stream: round1(ffPct / n),
    cpu_total_pct_per_stream: round1((nodePct + ffPct) / n),
  };
}

async function measureRtspLoad(camera: RtspTestCamera, n: number): Promise<Load & { first_frame_ms: number }> {
  const t0 = performance.now();
  const handles: IngestHandle[] = Array.from({ length: n }, (_, i) =>
    startVideoIngest({ streamId: `stream_rtsp_${i}`, sourceUrl: camera.url, detector: nothing, onDetections: () => {}, onStatus: () => {} }),
  );
  const deadline = Date.now() + 45_000;
  while (handles.some((h) => h.stats().frames_in === 0) && Date.now() < deadline) await sleep(20);
  const firstFrameMs = performance.now() - t0;
  await sleep(3000);
  const before = { frames: handles.map((h) => h.stats().frames_in), cpu: process.cpuUsage(), ff: childFfmpegCpuSeconds() };
  await sleep(TRIAL_MS);
  const cpu = process.cpuUsage(before.cpu);
  const ff = childFfmpegCpuSeconds() - before.ff;
  const secs = TRIAL_MS / 1000;
  const decoded = handles.map((h, k) => (h.stats().frames_in - before.frames[k]) / secs);
  await Promise.all(handles.map((h) => h.stop()));
  const nodePct = ((cpu.user + cpu.system) / 1e6 / secs) * 100;
  const ffPct = (ff / secs) * 100;
  return {
    streams: n,
    first_frame_ms: Math.round(firstFrameMs),
    decoded_fps_mean: round1(decoded.reduce((a, b) => a + b, 0) / n),
    decoded_fps_min: round1(Math.min(...decoded)),
    cpu_node_pct_per_stream: round1(nodePct / n),
    cpu_ffmpeg_pct_per_stream: round1(ffPct / n),
    cpu_total_pct_per_stream: round1((nodePct + ffPct) / n),
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-whip-bench-'));
  // what a phone sends: 720p at 15 fps (the publish page's ideal), keyframe every 2 s, encoded
  // once here so the publishers only packetize it; the RTSP camera encodes it live from the mp4
  const vf = ['-vf', 'scale=1280:720,fps=15'];
  // (containers that loop: MPEG-TS keeps H.264's SPS/PPS in band, WebM holds VP8)
  const clips = { H264: join(dir, 'clip.ts'), VP8: join(dir, 'clip.webm'), mp4: join(dir, 'clip.mp4') };
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-i',
    VTEST,
    '-t',
    '40',
    '-an',
    ...vf,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'baseline',
    '-b:v',
    '2500k',
    '-g',
    '30',
    '-x264-params',
    'repeat-headers=1',
    clips.H264,
  ]);
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-y',
    '-i',
    VTEST,
    '-t',
    '40',
    '-an',
    ...vf,
    '-c:v',
    'libvpx',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-b:v',
    '2500k',
    '-g',
    '30',
    clips.VP8,
  ]);
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', VTEST, '-t', '40', '-an', ...vf, '-c:v', 'libx264', '-preset', 'veryfast', '-g', '30', clips.mp4]);
  const clipFor = (codec: string) => (codec === 'VP8' ? clips.VP8 : clips.H264);
  const server = new BenchWhipServer();
  const url = await server.start();
  const camera = await RtspTestCamera.create(clips.mp4);
  await camera.start();
  try {
    console.log('latency: offer → first decoded frame');
    const latency = { VP8: await measureLatency(server, url, 'VP8', clipFor('VP8')), H264: await measureLatency(server, url, 'H264', clipFor('H264')) };
    console.log(' ', JSON.stringify(latency));
    const whip: Record<string, Load[]> = { VP8: [], H264: [] };
    const rtsp: Array<Load & { first_frame_ms: number }> = [];
    for (const n of [1, 2, 4]) {
      for (const codec of ['H264', 'VP8']) {
        const r = await measureWhipLoad(server, url, n, codec, clipFor(codec));
        whip[codec].push(r);
        console.log(`  whip ${codec} ${n} stream(s): ${JSON.stringify(r)}`);
      }
      const r = await measureRtspLoad(camera, n);
      rtsp.push(r);
      console.log(`  rtsp H264 ${n} stream(s): ${JSON.stringify(r)}`);
    }
    const RTSP = 'RTSP path in the same run: ffmpeg pulling a loopback RTSP camera of the same clip, same decode';
    const figures: Figure[] = [];
    const rtsp1 = rtsp[0];
    for (const codec of ['H264', 'VP8'] as const) {
      figures.push(
        figure(`WHIP ${codec} offer → first decoded frame, p50`, latency[codec].ms_p50, 'ms', 'lower', {
          name: `${RTSP}: start → first decoded frame (connect + probe), 1 stream`,
          value: rtsp1.first_frame_ms,
          unit: 'ms',
        }),
      );
    }
    rtsp.forEach((r, k) => {
      for (const codec of ['H264', 'VP8'] as const) {
        const w = whip[codec][k];
        // a publish that never delivered video costs next to nothing: divide by the streams that did
        const live = w.streams - (w.streams_without_video ?? 0);
        const perLive = live > 0 ? (w.cpu_total_pct_per_stream * w.streams) / live : NaN;
        const dead = live < w.streams ? ` (${w.streams - live} of them never delivered video)` : '';
        figures.push(
          figure(`WHIP ${codec} CPU per 720p stream delivering video, ${w.streams} stream(s) published${dead}`, perLive, '% of a core', 'lower', {
            name: `${RTSP}: CPU per stream, ${r.streams} stream(s)`,
            value: r.cpu_total_pct_per_stream,
            unit: '% of a core',
          }),
        );
        figures.push(
          figure(`WHIP ${codec} decoded frames/s of the slowest stream, ${w.streams} stream(s)`, w.decoded_fps_min, 'frames/s', 'higher', {
            name: `${RTSP}: slowest stream, ${r.streams} stream(s)`,
            value: r.decoded_fps_min,
            unit: 'frames/s',
          }),
        );
      }
    });
    writeResult('whip', 'webrtc-ingest', figures, {
      source: "1280x720, 15 fps, 2.5 Mbit/s (vtest.avi scaled), decoded at the pipeline's 5 fps and 640 px width",
      offer_to_first_frame_ms: latency,
      whip,
      rtsp,
      notes: [
        "CPU is % of one core per stream over the trial: node = this process (WHIP: werift ICE/DTLS/SRTP, jitter buffer, depacketizer; RTSP: ffmpeg supervision only), ffmpeg = the stream's decoder.",
        'Publishers (their encoders and werift senders) run in child processes and are not counted; on a small machine they compete for the same cores, which lowers received fps.',
        'The detector finds nothing here: its cost per frame is the same for every source and is in bench/results/video.json.',
        "offer_to_first_frame_ms is ICE + DTLS + the first keyframe + decode, on loopback; RTSP first_frame_ms is ffmpeg's connect + probe.",
      ],
    });
  } finally {
    await camera.stop();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
