/**
 * Recording's effect on the detection engine's capacity (README "Recordings, clips and evidence";
 * docs/decisions.md "Recordings: the effect on detection capacity"): the same busy vtest.avi
 * cameras through one detector pool (one worker per core) with the recorder's second output and
 * without it, alternating within one run (off, on, off, on…) so a shared machine's load drifts hit
 * both. Two sources: vtest.avi re-encoded to H.264 (recorded by copy, as an H.264 camera is) and
 * vtest.avi itself (MPEG-4 part 2: recorded by transcoding to H.264 at the configured size and rate).
 * Per trial: detector runs per stream (mean and slowest), frames decoded per stream, frame →
 * detection latency p95, and the CPU of this process (detector workers included) and of its ffmpeg
 * children, per stream, from /proc. Prints the figures; writes no results file (a paired comparison
 * on a busy machine, not a capacity figure).
 *   BENCH_STREAMS=2,3 BENCH_TRIAL_MS=12000 BENCH_PAIRS=2 node --import tsx bench/recording-capacity.bench.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDetectorPool, resolveFfmpegPath, startVideoIngest, type CameraIngestHandle, type CameraRecorder, type Detector, type DetectorPool } from '../src/ingest/video/index.ts';
import { SegmentRecorder } from '../src/org/recordings/segment-recorder.ts';

const VTEST = fileURLToPath(new URL('../../shared/fixtures/vtest.avi', import.meta.url));
const TRIAL_MS = Number(process.env.BENCH_TRIAL_MS ?? 12_000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
const STREAMS = (process.env.BENCH_STREAMS ?? '2,3').split(',').map(Number);
const SOURCES = (process.env.BENCH_SOURCES ?? 'copy,transcode').split(',');
const WARMUP_MS = 3000;
const ffmpeg = resolveFfmpegPath();
const hz = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

/** this process's live children (the ingest's ffmpegs) and their CPU seconds */
function childrenCpu(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
      if (Number(f[1]) === process.pid) out.set(Number(name), (Number(f[11]) + Number(f[12])) / hz);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
function p95(values: number[]): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.95 * s.length))];
}

interface Trial {
  source: string;
  recording: boolean;
  streams: number;
  detector_fps_mean: number;
  detector_fps_min: number;
  frames_in_per_stream_s: number;
  latency_ms_p95: number;
  /** share of decoded frames dropped because the stream's previous frame was still being detected, and skipped by the motion gate */
  dropped_busy: number;
  skipped_no_motion: number;
  /** cores: this process (detector workers, pipeline) and the ffmpeg children, per stream */
  node_cores_per_stream: number;
  ffmpeg_cores_per_stream: number;
  segments_written: number;
  load1: number;
}

async function trial(pool: DetectorPool, source: string, clip: string, streams: number, recording: boolean, root: string): Promise<Trial> {
  const latencies: number[] = [];
  let measuring = false;
  const timed: Detector = {
    async detect(frame, regions) {
      const t = performance.now();
      const objects = await pool.detect(frame, regions);
      if (measuring) latencies.push(performance.now() - t);
      return objects;
    },
  };
  let sealed = 0;
  const rec = new SegmentRecorder({
    root, nodeId: 'bench', ffmpegPath: () => ffmpeg, segmentSeconds: 10, transcode: { width: 1280, fps: 15 },
    seal: async () => {
      sealed++;
    },
    blocked: () => null,
  });
  const handles: CameraIngestHandle[] = [];
  for (let i = 0; i < streams; i++) {
    const recorder: CameraRecorder | undefined = recording
      ? { open: async () => rec.open({ tenantId: 'org_bench', streamId: `stream_${source}_${i}` }, source === 'copy' ? 'copy-h264' : 'transcode') }
      : undefined;
    handles.push(startVideoIngest({ streamId: `stream_bench_${i}`, sourceUrl: `file://${clip}`, detector: timed, motionGate: true, onDetections: () => {}, onStatus: () => {}, ...(recorder ? { recorder } : {}) }));
  }
  const deadline = Date.now() + 60_000;
  while (handles.some((h) => h.stats().frames_detected === 0) && Date.now() < deadline) await sleep(200);
  await sleep(WARMUP_MS);
  const before = handles.map((h) => h.stats());
  const kids0 = childrenCpu();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  measuring = true;
  await sleep(TRIAL_MS);
  measuring = false;
  const wall = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(self0);
  const kids1 = childrenCpu();
  const after = handles.map((h) => h.stats());
  await Promise.all(handles.map((h) => h.stop()));
  await rec.settle();
  let kidsCpu = 0;
  for (const [pid, c] of kids1) kidsCpu += c - (kids0.get(pid) ?? 0);
  const detected = after.map((a, i) => (a.frames_detected - before[i].frames_detected) / wall);
  const framesIn = after.reduce((s, a, i) => s + a.frames_in - before[i].frames_in, 0);
  return {
    source,
    recording,
    streams,
    detector_fps_mean: round2(detected.reduce((a, b) => a + b, 0) / streams),
    detector_fps_min: round2(Math.min(...detected)),
    frames_in_per_stream_s: round2(framesIn / streams / wall),
    latency_ms_p95: Math.round(p95(latencies)),
    dropped_busy: round2(after.reduce((s, a, i) => s + a.frames_dropped_busy - before[i].frames_dropped_busy, 0) / Math.max(1, framesIn)),
    skipped_no_motion: round2(after.reduce((s, a, i) => s + a.frames_skipped_no_motion - before[i].frames_skipped_no_motion, 0) / Math.max(1, framesIn)),
    node_cores_per_stream: round2((self.user + self.system) / 1e6 / wall / streams),
    ffmpeg_cores_per_stream: round2(kidsCpu / wall / streams),
    segments_written: sealed,
    load1: round2(loadavg()[0]),
  };
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-rec-capacity-'));
try {
  const h264 = join(dir, 'vtest-h264.mp4');
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', VTEST, '-an', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '20', '-pix_fmt', 'yuv420p', h264]);
  const pool = await createDetectorPool({ workers: availableParallelism() });
  const trials: Trial[] = [];
  for (const source of SOURCES) {
    const clip = source === 'copy' ? h264 : VTEST;
    for (const n of STREAMS) {
      for (let p = 0; p < PAIRS; p++) {
        // alternate the order within each pair, so neither side always runs first
        for (const recording of p % 2 === 0 ? [false, true] : [true, false]) {
          const t = await trial(pool, source, clip, n, recording, join(dir, 'rec'));
          trials.push(t);
          console.log(JSON.stringify(t));
        }
      }
    }
  }
  await pool.close();
  console.log('\nmeans over pairs (recording on / off):');
  for (const source of SOURCES) {
    for (const n of STREAMS) {
      const pick = (rec: boolean) => trials.filter((t) => t.source === source && t.streams === n && t.recording === rec);
      const mean = (ts: Trial[], k: keyof Trial) => ts.reduce((a, t) => a + (t[k] as number), 0) / ts.length;
      const on = pick(true);
      const off = pick(false);
      const row = (k: keyof Trial) => `${k} ${round2(mean(on, k))} / ${round2(mean(off, k))} (${round2(mean(on, k) / mean(off, k))}x)`;
      console.log(`${source} ${n} streams: ${['detector_fps_mean', 'detector_fps_min', 'frames_in_per_stream_s', 'latency_ms_p95', 'dropped_busy', 'node_cores_per_stream', 'ffmpeg_cores_per_stream'].map((k) => row(k as keyof Trial)).join('; ')}; load ${round2(mean([...on, ...off], 'load1'))}`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
