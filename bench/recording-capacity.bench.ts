/**
 * Recording's effect on the detection engine's capacity (README "Recordings, clips and evidence";
 * docs/decisions.md "Recordings: the effect on detection capacity"): the same busy vtest.avi
 * cameras through one detector pool (one worker per core) with the recorder's second output and
 * without it, alternating within one run (off, on, off, on…) so a shared machine's load drifts hit
 * both. Two sources: vtest.avi re-encoded to H.264 (recorded by copy, as an H.264 camera is) and
 * vtest.avi itself (MPEG-4 part 2: recorded by transcoding to H.264 at the configured size and rate).
 * Per trial: detector runs per stream (mean and slowest), frames decoded per stream, frame →
 * detection latency p95, and the CPU of this process (detector workers included) and of its ffmpeg
 * children, per stream, from /proc, and the load average at its start and end.
 *
 * The figure is the ratio of paired runs: each pair is one run without and one with recording, back
 * to back (the order alternates from pair to pair); its ratio on/off of the mean detector rate per
 * stream is what recording costs in capacity, and the ratios' mean, spread (min, max, standard
 * deviation) over the pairs say how far one can trust it. Every pair carries the load average at
 * its start and at its end, and the result says whether every pair ran on a quiet machine (other
 * processes using under a fifth of a core in every trial; the bench's own load does not count):
 * only such a run gives a figure to quote against the target (at most
 * 10% less capacity). Writes bench/results/recording-capacity.json (shape: bench/machine.ts).
 *   BENCH_STREAMS=2,3 BENCH_TRIAL_MS=12000 BENCH_PAIRS=4 node --import tsx bench/recording-capacity.bench.ts
 *   smoke (checks it runs, no figure): BENCH_STREAMS=1 BENCH_PAIRS=1 BENCH_SOURCES=copy BENCH_TRIAL_MS=4000 BENCH_RESULT=recording-capacity-smoke …
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createDetectorPool,
  resolveFfmpegPath,
  startVideoIngest,
  type CameraIngestHandle,
  type CameraRecorder,
  type Detector,
  type DetectorPool,
} from '../src/ingest/video/index.ts';
import { SegmentRecorder } from '../src/org/recordings/segment-recorder.ts';
import { loadConfig } from '../src/platform/config/index.ts';
import { figure, machineAtStart, watchCpu, writeResult, type Figure } from './machine.ts';

const VTEST = fileURLToPath(new URL('../../shared/fixtures/vtest.avi', import.meta.url));
const TRIAL_MS = Number(process.env.BENCH_TRIAL_MS ?? 12_000);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 4);
const RESULT = process.env.BENCH_RESULT ?? 'recording-capacity';
/** the target: recording changes the busy-camera capacity by at most this share */
const TARGET_SHARE = 0.1;
/** a trial ran on a quiet machine when everything but the bench used less than this many cores */
const QUIET_OTHER_CORES = 0.2;
const STREAMS = (process.env.BENCH_STREAMS ?? '2,3').split(',').map(Number);
const SOURCES = (process.env.BENCH_SOURCES ?? 'copy,transcode').split(',');
const WARMUP_MS = 3000;
const ffmpeg = resolveFfmpegPath();
/** the recordings settings a node would run with (VIGIL_RECORDINGS_TRANSCODE_WIDTH, _FPS: the defaults unless set) */
const recordings = loadConfig({}, process.env).recordings;
/** transcoded cameras: the stream counts asked for and the node's limit on transcoded recordings */
const TRANSCODE_STREAMS = process.env.BENCH_TRANSCODE_STREAMS
  ? process.env.BENCH_TRANSCODE_STREAMS.split(',').map(Number)
  : [...new Set([...STREAMS, recordings.maxTranscodes])].filter((n) => n > 0).sort((a, b) => a - b);
const streamsOf = (source: string) => (source === 'copy' ? STREAMS : TRANSCODE_STREAMS);

const round2 = (v: number) => Math.round(v * 100) / 100;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
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
  /** 1-minute load average when the trial started (its streams starting) and when it ended */
  load1_start: number;
  load1_end: number;
  /** cores the rest of the machine kept busy during the measured window (machine.ts, watchCpu) */
  other_cores: number | null;
}

/** One run without and one with recording, back to back. */
interface Pair {
  source: string;
  streams: number;
  pair: number;
  order: 'off-on' | 'on-off';
  /** 1, 5, 15-minute load averages at the pair's start and end */
  load_start: number[];
  load_end: number[];
  off: Trial;
  on: Trial;
  /** on / off of each figure */
  ratio: { detector_fps_mean: number; detector_fps_min: number; frames_in_per_stream_s: number; latency_ms_p95: number };
}

const loads = () => loadavg().map(round2);
function spread(values: number[]): { mean: number; min: number; max: number; stdev: number; n: number } {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const stdev = n > 1 ? Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1)) : NaN;
  return { mean: round3(mean), min: round3(Math.min(...values)), max: round3(Math.max(...values)), stdev: round3(stdev), n };
}

async function trial(pool: DetectorPool, source: string, clip: string, streams: number, recording: boolean, root: string): Promise<Trial> {
  const load1Start = round2(loadavg()[0]);
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
    root,
    nodeId: 'bench',
    ffmpegPath: () => ffmpeg,
    segmentSeconds: 10,
    transcode: { width: recordings.transcodeWidth, fps: recordings.transcodeFps },
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
    handles.push(
      startVideoIngest({
        streamId: `stream_bench_${i}`,
        sourceUrl: `file://${clip}`,
        detector: timed,
        motionGate: true,
        onDetections: () => {},
        onStatus: () => {},
        ...(recorder ? { recorder } : {}),
      }),
    );
  }
  const deadline = Date.now() + 60_000;
  while (handles.some((h) => h.stats().frames_detected === 0) && Date.now() < deadline) await sleep(200);
  await sleep(WARMUP_MS);
  const before = handles.map((h) => h.stats());
  const cpu = watchCpu();
  const t0 = performance.now();
  measuring = true;
  await sleep(TRIAL_MS);
  measuring = false;
  const wall = (performance.now() - t0) / 1000;
  const share = cpu.stop();
  const after = handles.map((h) => h.stats());
  await Promise.all(handles.map((h) => h.stop()));
  await rec.settle();
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
    node_cores_per_stream: round2((share?.self_cores ?? NaN) / streams),
    ffmpeg_cores_per_stream: round2((share?.children_cores ?? NaN) / streams),
    segments_written: sealed,
    load1_start: load1Start,
    load1_end: round2(loadavg()[0]),
    other_cores: share?.other_cores ?? null,
  };
}

machineAtStart();
const dir = mkdtempSync(join(tmpdir(), 'vigil-rec-capacity-'));
try {
  const h264 = join(dir, 'vtest-h264.mp4');
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-i', VTEST, '-an', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '20', '-pix_fmt', 'yuv420p', h264]);
  const cores = availableParallelism();
  const pool = await createDetectorPool({ workers: cores });
  const pairs: Pair[] = [];
  for (const source of SOURCES) {
    const clip = source === 'copy' ? h264 : VTEST;
    for (const n of streamsOf(source)) {
      for (let p = 0; p < PAIRS; p++) {
        // alternate the order within each pair, so neither side always runs first
        const order = p % 2 === 0 ? 'off-on' : 'on-off';
        const loadStart = loads();
        const byRec = new Map<boolean, Trial>();
        for (const recording of order === 'off-on' ? [false, true] : [true, false]) {
          const t = await trial(pool, source, clip, n, recording, join(dir, 'rec'));
          byRec.set(recording, t);
          console.log(JSON.stringify(t));
        }
        const on = byRec.get(true)!;
        const off = byRec.get(false)!;
        const r = (k: 'detector_fps_mean' | 'detector_fps_min' | 'frames_in_per_stream_s' | 'latency_ms_p95') => round3(on[k] / off[k]);
        const pair: Pair = {
          source,
          streams: n,
          pair: p + 1,
          order,
          load_start: loadStart,
          load_end: loads(),
          off,
          on,
          ratio: {
            detector_fps_mean: r('detector_fps_mean'),
            detector_fps_min: r('detector_fps_min'),
            frames_in_per_stream_s: r('frames_in_per_stream_s'),
            latency_ms_p95: r('latency_ms_p95'),
          },
        };
        pairs.push(pair);
        console.log(
          `pair ${source} ${n} streams #${pair.pair} (${order}): detector rate on/off ${pair.ratio.detector_fps_mean}; load ${pair.load_start[0]} → ${pair.load_end[0]}`,
        );
      }
    }
  }
  await pool.close();

  // per source and stream count: the paired ratios, their spread, and whether the machine was quiet
  const figures: Figure[] = [];
  const summary = [];
  for (const source of SOURCES) {
    for (const n of streamsOf(source)) {
      const ps = pairs.filter((p) => p.source === source && p.streams === n);
      const ratios = spread(ps.map((p) => p.ratio.detector_fps_mean));
      const maxLoad = Math.max(...ps.flatMap((p) => [p.load_start[0], p.load_end[0], p.on.load1_start, p.on.load1_end, p.off.load1_start, p.off.load1_end]));
      // the bench keeps every core busy itself, so its own load average says nothing about competition:
      // quiet is the rest of the machine using under a fifth of a core in every trial (machine.ts, watchCpu)
      const others = ps.flatMap((p) => [p.on.other_cores, p.off.other_cores]);
      const maxOther = others.some((o) => o === null) ? null : Math.max(...(others as number[]));
      const quiet = maxOther === null ? maxLoad < cores : maxOther < QUIET_OTHER_CORES;
      const trustworthy = quiet && ratios.n >= 3 && ratios.max - ratios.min <= TARGET_SHARE;
      const meanOf = (ts: Trial[], k: 'detector_fps_mean') => ts.reduce((a, t) => a + t[k], 0) / ts.length;
      const on = meanOf(
        ps.map((p) => p.on),
        'detector_fps_mean',
      );
      const off = meanOf(
        ps.map((p) => p.off),
        'detector_fps_mean',
      );
      const what = source === 'copy' ? 'H.264 cameras recorded by copy' : 'MPEG-4 part 2 cameras recorded by transcoding';
      const f = figure(`detector runs per stream, ${n} busy ${what} (mean of ${ps.length} pairs)`, on, 'detections/s per stream', 'higher', {
        name: 'the same cameras without recording, in the same pairs',
        value: off,
        unit: 'detections/s per stream',
      });
      figures.push(f);
      const paired = figure(
        `capacity with recording / without, ${n} busy ${what}: mean of the paired ratios`,
        ratios.mean,
        'ratio',
        'higher',
        {
          none: `ratio of paired runs (spread ${ratios.min}–${ratios.max}, stdev ${Number.isFinite(ratios.stdev) ? ratios.stdev : 'n/a'}, ${ratios.n} pairs); ${quiet ? `other processes used at most ${maxOther ?? '?'} cores in any trial` : `NOT a quiet run: other processes used up to ${maxOther ?? '?'} cores (load ${maxLoad} on ${cores} cores), so the spread, not the mean, is what this run shows`}`,
        },
        { value: 1 - TARGET_SHARE },
      );
      // the target is met only by a figure that can be trusted: quiet, 3 pairs or more, a narrow spread, the worst pair within it
      paired.target!.met = trustworthy && ratios.min >= 1 - TARGET_SHARE;
      figures.push(paired);
      // what recording adds to each camera's ffmpeg: nothing for a copy, the encoder for a transcode
      const added = spread(ps.map((p) => p.on.ffmpeg_cores_per_stream - p.off.ffmpeg_cores_per_stream));
      const atLimit = source === 'transcode' && n === recordings.maxTranscodes;
      figures.push(
        figure(`ffmpeg CPU recording adds per camera, ${n} busy ${what} (mean of ${ps.length} pairs)`, added.mean, 'cores per camera', 'lower', {
          none: `on − off of each pair's ffmpeg cores per stream (spread ${added.min}–${added.max})${atLimit ? `; ${n} is the node's limit on transcoded recordings (VIGIL_RECORDINGS_MAX_TRANSCODES)` : ''}`,
        }),
      );
      summary.push({
        ffmpeg_cores_added_per_stream: added,
        at_node_limit: atLimit,
        source,
        streams: n,
        pairs: ps.length,
        detector_fps_ratio: ratios,
        detector_fps_min_ratio: spread(ps.map((p) => p.ratio.detector_fps_min)),
        frames_in_ratio: spread(ps.map((p) => p.ratio.frames_in_per_stream_s)),
        latency_p95_ratio: spread(ps.map((p) => p.ratio.latency_ms_p95)),
        max_load1: maxLoad,
        max_other_cores: maxOther,
        quiet,
        // the target holds for this run when even the worst pair is within it, on a quiet machine
        target_met_by_every_pair: ratios.min >= 1 - TARGET_SHARE,
        trustworthy,
      });
    }
  }
  console.log('\npaired ratios (recording on / off):');
  for (const s of summary)
    console.log(
      `${s.source} ${s.streams} streams: detector rate ${s.detector_fps_ratio.mean} (${s.detector_fps_ratio.min}–${s.detector_fps_ratio.max}, stdev ${s.detector_fps_ratio.stdev}, ${s.pairs} pairs); latency p95 ${s.latency_p95_ratio.mean}; ffmpeg +${s.ffmpeg_cores_added_per_stream.mean} cores a camera${s.at_node_limit ? " (the node's limit)" : ''}; max load ${s.max_load1}, others up to ${s.max_other_cores} cores${s.quiet ? '' : ' (not quiet)'}; trustworthy ${s.trustworthy}`,
    );
  writeResult(RESULT, 'recording-capacity', figures, {
    trial_ms: TRIAL_MS,
    warmup_ms: WARMUP_MS,
    cores,
    method:
      "pairs of back-to-back runs without and with recording (order alternating); ratio = on / off within a pair; a figure is trustworthy when other processes used under ${QUIET_OTHER_CORES} cores in every trial (the bench's own load does not count), at least 3 pairs, and the ratios spread by at most the target (10 points)",
    summary,
    pairs,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
