/**
 * Real-video pipeline speed: CenterNet ms/frame (p50/p95), detector
 * frames/s per core, frame → detection latency p95, and how many 5 fps streams of vtest.avi one
 * machine sustains with the motion gate on and off — on the busy clip itself and on a quiet
 * clip (a corner of the same footage where nobody walks, so only sensor/codec noise moves).
 * Writes bench/results/video.json.
 * The limit, in the same run on the same frames: raw ONNX Runtime inference of the same model on
 * this thread (bench/raw-onnx.ts: one intra-op thread, the same input size; no worker, no
 * transfer, no box decoding, no pool). The detector runs on ONNX Runtime (docs/decisions.md,
 * 'CenterNet on ONNX Runtime'); bench/raw-centernet.ts is the tfjs original, kept for comparison.
 *   node --import tsx bench/video.bench.ts      (BENCH_TRIAL_MS=12000 per stream-count trial)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { FramePipeline } from '../src/ingest/video/frame-pipeline.ts';
import {
  createDetectorPool,
  resolveFfmpegPath,
  startVideoIngest,
  type VideoDetection,
  type Detector,
  type DetectorPool,
  type CameraIngestHandle,
} from '../src/ingest/video/index.ts';
import { decodeFrames } from '../tests/fixtures-video/decode-frames.ts';
import { figure, writeResult } from './machine.ts';
import { loadRawCenterNet } from './raw-centernet.ts';
import { loadRawOnnx } from './raw-onnx.ts';

const VTEST = fileURLToPath(new URL('../../shared/fixtures/vtest.avi', import.meta.url));
const TRIAL_MS = Number(process.env.BENCH_TRIAL_MS ?? 12_000);
const WARMUP_MS = 3000;
const MAX_STREAMS = Number(process.env.BENCH_MAX_STREAMS ?? 32);
const CORES = availableParallelism();
// A/B runs on a shared machine: BENCH_VIDEO_QUICK=1 measures the busy clip, gate on, only
const QUICK = process.env.BENCH_VIDEO_QUICK === '1';

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
const round1 = (v: number) => Math.round(v * 10) / 10;
const round2 = (v: number) => Math.round(v * 100) / 100;
/** people in vtest.avi counted by eye every 2 s (tests/fixtures-video/vtest-people.json) */
const LABELS = JSON.parse(readFileSync(new URL('../tests/fixtures-video/vtest-people.json', import.meta.url), 'utf8')) as {
  frames: Array<{ t: number; people: number; partial?: number }>;
};
/** people per frame of vtest.avi, [min, max], from the labels (someone only partly in view counts towards max) */
const PEOPLE_RANGE: [number, number] = [Math.min(...LABELS.frames.map((f) => f.people)), Math.max(...LABELS.frames.map((f) => f.people + (f.partial ?? 0)))];

/** Sequential inference on one worker, then all cores busy at once. */
async function measureDetector() {
  const frames = await decodeFrames(VTEST, 60, 2);
  const single = await createDetectorPool({ workers: 1 });
  // the limit: the same frames through the model on this thread, alternating frame by frame with
  // the one-worker pool (never at the same time) so both see the same machine state
  const infer = await loadRawOnnx();
  const ms: number[] = [];
  const rawMs: number[] = [];
  for (const f of frames) {
    let t = performance.now();
    await single.detect(f);
    ms.push(performance.now() - t);
    t = performance.now();
    await infer(f);
    rawMs.push(performance.now() - t);
  }
  // inside the worker: the whole detect (frame in, boxes out) against session.run alone
  const inside = single.stats();
  await single.close();
  // the tfjs-wasm original on the same frames, for the record (the fallback's speed)
  const tfjsMs: number[] = [];
  if (process.env.BENCH_VIDEO_TFJS !== '0') {
    const tfjs = await loadRawCenterNet();
    for (const f of frames.slice(0, 20)) {
      const t = performance.now();
      await tfjs(f);
      tfjsMs.push(performance.now() - t);
    }
  }
  // the labelled range: people the model finds in whole frames of the clip (score ≥ 0.45, the
  // pipeline's person threshold), 1 frame a second over the whole clip
  const labelled = await createDetectorPool({ workers: CORES, maxQueue: 256 });
  const clip = await decodeFrames(VTEST, 79, 1);
  const people = await Promise.all(clip.map(async (f) => (await labelled.detect(f)).filter((o) => o.label === 'person' && o.score >= 0.45).length));
  await labelled.close();
  const modelRange = [Math.min(...people), Math.max(...people)];
  const all = await createDetectorPool({ workers: CORES });
  const t0 = performance.now();
  await Promise.all(frames.map((f) => all.detect(f)));
  const allFps = frames.length / ((performance.now() - t0) / 1000);
  await all.close();
  const p50 = percentile(ms, 50);
  return {
    frames: frames.length,
    frame_size: `${frames[0].width}x${frames[0].height}`,
    ms_p50: round1(p50),
    ms_p95: round1(percentile(ms, 95)),
    fps_per_core: round1(1000 / p50),
    fps_all_cores: round1(allFps),
    cores: CORES,
    runtime: single.runtime.runtime,
    worker_ms_mean: round1(inside.busy_ms / Math.max(1, inside.frames)),
    worker_session_run_ms_mean: round1(inside.infer_ms / Math.max(1, inside.frames)),
    raw_inference: {
      runtime: 'onnxruntime-node, one thread',
      ms_p50: round1(percentile(rawMs, 50)),
      ms_p95: round1(percentile(rawMs, 95)),
      fps: round1(1000 / percentile(rawMs, 50)),
    },
    raw_tfjs_wasm: {
      ms_p50: round1(percentile(tfjsMs, 50)),
      frames: tfjsMs.length,
      note: 'the tfjs-wasm original (Human, 512x512 squeeze), 20 of the same frames, after the ONNX runs',
    },
    people_range: PEOPLE_RANGE,
    model_people_range: modelRange,
  };
}

/**
 * How right the count is, with no load at all: every frame of the clip at 5 fps through one
 * stream's pipeline (default options, a clock that advances 200 ms a frame, each frame waited
 * for), its people count at each labelled second against the label; the limit is the model's own
 * count on the whole frame (score ≥ 0.45) at the same seconds.
 */
async function measureCountAccuracy() {
  const frames = await decodeFrames(VTEST, 395, 5);
  const pool = await createDetectorPool({ workers: CORES, maxQueue: 512 });
  let now = 0;
  let count = 0;
  const pipeline = new FramePipeline({
    detector: pool,
    clock: { now: () => now } as never,
    onDetections: (b) => b.forEach((d) => d.type === 'person_count' && (count = d.value ?? 0)),
  });
  const byFrame: number[] = [];
  for (let i = 0; i < frames.length; i++) {
    now = i * 200;
    await pipeline.process(frames[i], now);
    byFrame.push(count);
  }
  await pipeline.stop();
  const labelled = LABELS.frames.filter((f) => f.t > 0 && f.t * 5 < frames.length);
  const whole = await Promise.all(
    labelled.map(async (f) => (await pool.detect(frames[f.t * 5])).filter((o) => o.label === 'person' && o.score >= 0.45).length),
  );
  await pool.close();
  const mae = (v: number[]) => round2(v.reduce((a, c, i) => a + Math.abs(c - labelled[i].people), 0) / v.length);
  const pipelineCounts = labelled.map((f) => byFrame[f.t * 5]);
  return {
    seconds: labelled.length,
    pipeline_mae: mae(pipelineCounts),
    pipeline_bias: round2(pipelineCounts.reduce((a, c, i) => a + c - labelled[i].people, 0) / labelled.length),
    whole_frame_mae: mae(whole),
    pipeline_in_range: round2(byFrame.slice(5).filter((c) => c >= PEOPLE_RANGE[0] && c <= PEOPLE_RANGE[1]).length / Math.max(1, byFrame.length - 5)),
  };
}

interface Trial {
  streams: number;
  /** detector runs per second, per stream: mean and the slowest stream */
  detector_fps_mean: number;
  detector_fps_min: number;
  /** frames skipped by the motion gate, share of frames decoded */
  skipped_no_motion: number;
  /** frames dropped because the stream's previous frame was still being detected */
  dropped_busy: number;
  frames_in_per_s: number;
  latency_ms_p95: number;
  /** frames of video handled (detected, judged still or carried by the tracker; not dropped) per second of detector CPU (pool inference ms), per core */
  effective_fps_per_core: number;
  /** share of detector runs made on motion regions rather than the whole frame, and share of frames the tracker carried */
  on_regions: number;
  carried: number;
  /** model input pixels per frame of video handled, thousands: the detector's work per frame, independent of machine load (512×512 whole = 262) */
  input_kpx_per_frame: number;
  /** share of the time each stream's people count (sampled every 250 ms) is inside the labelled range (PEOPLE_RANGE): the worst stream */
  counts_in_range_min: number;
  sustained?: boolean;
}

/** N concurrent ingests of one clip for TRIAL_MS, sharing one pool (one worker per core). */
async function runTrial(pool: DetectorPool, clip: string, streams: number, motionGate: boolean): Promise<Trial> {
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
  const handles: CameraIngestHandle[] = [];
  // each stream's people count as it stands, sampled 4 times a second while measuring (time-weighted)
  const current: number[] = Array.from({ length: streams }, () => 0);
  const counts: number[][] = Array.from({ length: streams }, () => []);
  const sampler = setInterval(() => {
    if (measuring) current.forEach((v, i) => counts[i].push(v));
  }, 250);
  for (let i = 0; i < streams; i++) {
    const onDetections = (batch: VideoDetection[]) => {
      for (const d of batch) if (d.type === 'person_count') current[i] = d.value ?? 0;
    };
    handles.push(
      startVideoIngest({ streamId: `stream_bench_${i}`, sourceUrl: `file://${clip}`, detector: timed, motionGate, onDetections, onStatus: () => {} }),
    );
  }
  // every stream's first frame is always detected: let that burst drain before measuring
  const deadline = Date.now() + 60_000;
  while (handles.some((h) => h.stats().frames_detected === 0) && Date.now() < deadline) await sleep(200);
  await sleep(WARMUP_MS);
  const before = handles.map((h) => h.stats());
  const busyBefore = pool.stats().busy_ms;
  const pixelsBefore = pool.stats().input_pixels;
  const extraBefore = handles.map((h) => h.pipelineStats());
  measuring = true;
  await sleep(TRIAL_MS);
  measuring = false;
  clearInterval(sampler);
  const afterStats = handles.map((h) => h.stats());
  const busyMs = pool.stats().busy_ms - busyBefore;
  const pixels = pool.stats().input_pixels - pixelsBefore;
  const extra = handles.map((h, i) => {
    const a = h.pipelineStats();
    return { carried: a.frames_carried - extraBefore[i].frames_carried, regions: a.frames_on_regions - extraBefore[i].frames_on_regions };
  });
  await Promise.all(handles.map((h) => h.stop()));
  const secs = TRIAL_MS / 1000;
  const delta = (k: 'frames_in' | 'frames_detected' | 'frames_skipped_no_motion' | 'frames_dropped_busy') => afterStats.map((a, i) => a[k] - before[i][k]);
  const detected = delta('frames_detected').map((n) => n / secs);
  const framesIn = delta('frames_in').reduce((a, b) => a + b, 0);
  const handled = framesIn - delta('frames_dropped_busy').reduce((a, b) => a + b, 0);
  const runs = delta('frames_detected').reduce((a, b) => a + b, 0);
  return {
    streams,
    detector_fps_mean: round1(detected.reduce((a, b) => a + b, 0) / streams),
    detector_fps_min: round1(Math.min(...detected)),
    skipped_no_motion: Math.round((100 * delta('frames_skipped_no_motion').reduce((a, b) => a + b, 0)) / Math.max(1, framesIn)) / 100,
    dropped_busy: Math.round((100 * delta('frames_dropped_busy').reduce((a, b) => a + b, 0)) / Math.max(1, framesIn)) / 100,
    frames_in_per_s: round1(framesIn / secs),
    latency_ms_p95: round1(percentile(latencies, 95)),
    // detector CPU: inference ms summed over the pool's workers; per core = one worker's worth
    effective_fps_per_core: busyMs > 0 ? round1(handled / (busyMs / 1000)) : 0,
    on_regions: runs ? Math.round((100 * extra.reduce((a, e) => a + e.regions, 0)) / runs) / 100 : 0,
    carried: Math.round((100 * extra.reduce((a, e) => a + e.carried, 0)) / Math.max(1, framesIn)) / 100,
    input_kpx_per_frame: round1(pixels / 1000 / Math.max(1, handled)),
    counts_in_range_min: Math.min(...counts.map((c) => (c.length ? c.filter((v) => v >= PEOPLE_RANGE[0] && v <= PEOPLE_RANGE[1]).length / c.length : 1))),
  };
}

/** 1, 2, 4, 6, 8, 12, 16, 24, 32…: fine enough around the target of 6 */
function streamCounts(max: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= max; n = n < 4 ? n * 2 : n < 8 ? n + 2 : n + n / 2) out.push(n);
  return out;
}

/**
 * Doubles the stream count until a stream falls behind: sustained means every stream still gets
 * at least 80 % of the detector runs a lone stream gets, its decoder keeps 5 fps (≥ 4.5), at
 * least 90 % of the time its people count is inside the labelled range (the busy clip), and frame →
 * detection latency p95 stays within 2 s (or twice a lone stream's, if that is more).
 */
async function findSustained(pool: DetectorPool, clip: string, motionGate: boolean) {
  const trials: Trial[] = [];
  let best = 0;
  let alone: Trial | null = null;
  for (const n of streamCounts(MAX_STREAMS)) {
    const t = await runTrial(pool, clip, n, motionGate);
    alone ??= t;
    const latencyBound = Math.max(2000, 2 * (alone.latency_ms_p95 || 0));
    t.sustained =
      t.detector_fps_min >= 0.8 * alone.detector_fps_mean &&
      t.frames_in_per_s / n >= 4.5 &&
      (clip !== VTEST || t.counts_in_range_min >= 0.9) &&
      (Number.isNaN(t.latency_ms_p95) || t.latency_ms_p95 <= latencyBound);
    trials.push(t);
    console.log(`  ${motionGate ? 'gate on ' : 'gate off'} ${n} streams: ${JSON.stringify(t)}`);
    if (!t.sustained) break;
    best = n;
  }
  const top = trials.find((t) => t.streams === best);
  // frames of video handled per second of detector CPU at that load
  return {
    max_sustained_streams: best,
    effective_fps_per_core: top?.effective_fps_per_core ?? 0,
    input_kpx_per_frame: top?.input_kpx_per_frame ?? NaN,
    trials,
  };
}

/** The lawn at the bottom left of vtest.avi: real footage in which nothing moves. */
function makeQuietClip(dir: string): string {
  const out = join(dir, 'quiet.mp4');
  execFileSync(resolveFfmpegPath(), [
    '-v',
    'error',
    '-y',
    '-i',
    VTEST,
    '-an',
    '-vf',
    'crop=iw*0.45:ih*0.4:0:ih*0.6',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '23',
    out,
  ]);
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'vigil-video-bench-'));
try {
  console.log('detector…');
  const detector = await measureDetector();
  console.log(' ', JSON.stringify(detector));
  console.log('count accuracy…');
  const accuracy = await measureCountAccuracy();
  console.log(' ', JSON.stringify(accuracy));
  const quiet = makeQuietClip(dir);
  const pool = await createDetectorPool({ workers: CORES });
  const streams: Record<string, unknown> = {};
  for (const [name, clip] of [
    ['busy_vtest', VTEST],
    ['quiet_corner', quiet],
  ] as const) {
    if (QUICK && name !== 'busy_vtest') continue;
    console.log(`${name}…`);
    streams[name] = {
      gate_on: await findSustained(pool, clip, true),
      gate_off: QUICK
        ? { max_sustained_streams: NaN, effective_fps_per_core: NaN, input_kpx_per_frame: NaN, trials: [] }
        : await findSustained(pool, clip, false),
    };
  }
  if (QUICK) {
    await pool.close();
    console.log('quick run: bench/results/video.json not written');
    process.exit(0);
  }
  await pool.close();
  const busyAlone = (streams.busy_vtest as { gate_on: { trials: Trial[] } }).gate_on.trials[0];
  const raw = detector.raw_inference;
  const busy = streams.busy_vtest as Record<
    'gate_on' | 'gate_off',
    { max_sustained_streams: number; effective_fps_per_core: number; input_kpx_per_frame: number }
  >;
  const RAW = 'raw ONNX Runtime inference of the same model on this thread (same frames and input size, one thread; no worker, transfer, box decoding or pool)';
  // streams of 5 fps a whole-frame detector could detect every frame of, if every core ran raw inference
  const wholeFrameStreams = (CORES * raw.fps) / 5;
  const figures = [
    figure('detector ms/frame (pool round trip, one worker), p50', detector.ms_p50, 'ms', 'lower', { name: `${RAW}, p50`, value: raw.ms_p50, unit: 'ms' }),
    figure('detector ms/frame (pool round trip, one worker), p95', detector.ms_p95, 'ms', 'lower', { name: `${RAW}, p95`, value: raw.ms_p95, unit: 'ms' }),
    figure('detector ms/frame inside its worker (frame in, boxes out), mean', detector.worker_ms_mean, 'ms', 'lower', {
      name: 'ONNX Runtime session.run inside the same worker on the same frames, mean',
      value: detector.worker_session_run_ms_mean,
      unit: 'ms',
    }),
    figure(`detector frames/s, all ${CORES} cores busy`, detector.fps_all_cores, 'frames/s', 'higher', {
      name: `${RAW}: ${CORES} × frames/s of one thread`,
      value: CORES * raw.fps,
      unit: 'frames/s',
    }),
    figure(
      'busy vtest.avi 5 fps streams sustained, gate on',
      busy.gate_on.max_sustained_streams,
      'streams',
      'higher',
      { name: `${RAW}: streams whose every frame ${CORES} cores could detect whole (${CORES} × fps / 5)`, value: wholeFrameStreams, unit: 'streams' },
      { value: 8 },
    ),
    figure('people count of one vtest.avi stream against counts by eye every 2 s, mean absolute error (no load)', accuracy.pipeline_mae, 'people', 'lower', {
      name: "the model's own count on the whole frame at the same seconds (score ≥ 0.45)",
      value: accuracy.whole_frame_mae,
      unit: 'people',
    }),
    figure('busy vtest.avi 5 fps streams sustained, gate off', busy.gate_off.max_sustained_streams, 'streams', 'higher', {
      name: `${RAW}: streams whose every frame ${CORES} cores could detect whole (${CORES} × fps / 5)`,
      value: wholeFrameStreams,
      unit: 'streams',
    }),
    figure(
      'busy vtest.avi: effective detector frames/s per core (frames of video handled per second of detector CPU) at the sustained load, gate on (regions + tracker carrying)',
      busy.gate_on.effective_fps_per_core,
      'frames/s',
      'higher',
      { name: `${RAW}: frames/s of one thread`, value: raw.fps, unit: 'frames/s' },
    ),
    figure(
      "busy vtest.avi: model input per frame of video handled at the sustained load, gate on (the detector's work, independent of machine load)",
      busy.gate_on.input_kpx_per_frame,
      'kpx',
      'lower',
      { name: 'every frame whole at 512x512, as Human runs it', value: 262.1, unit: 'kpx' },
    ),
    figure(
      'busy vtest.avi: effective detector frames/s per core at the sustained load, gate off (every frame whole)',
      busy.gate_off.effective_fps_per_core,
      'frames/s',
      'higher',
      { name: `${RAW}: frames/s of one thread`, value: raw.fps, unit: 'frames/s' },
    ),
  ];
  writeResult('video', 'video-pipeline', figures, {
    detector,
    count_accuracy: accuracy,
    frame_to_detection_ms_p95: busyAlone.latency_ms_p95,
    streams,
    notes: [
      'detector ms are round trips to a worker thread (transfer + CenterNet on ONNX Runtime, one intra-op thread, + box decoding and NMS); whole frames run at 512x384 (aspect kept; docs/decisions.md, "Detector throughput, second pass")',
      'raw inference runs models/centernet.onnx on the bench thread (session.run only, the same 512x384 input, one thread), alternating frame by frame with the one-worker pool, on the same frames; target: pool ms within 1.2x of it',
      'people_range: [min, max] people in vtest.avi counted by eye every 2 s (tests/fixtures-video/vtest-people.json; someone only partly in view counts towards max); model_people_range: what whole-frame detection (score >= 0.45) finds at 1 frame/s, which misses people (it was the range before the labels). A stream counts right when its people count (sampled every 250 ms while measuring) is inside >= 90 % of the time',
      "count_accuracy: one stream, every 5 fps frame of the clip waited for (no drops, no load), its people count at each labelled second against the label (mean absolute error, and bias: + overcounts); whole_frame_mae is the model's own per-frame count at the same seconds",
      'streams limit: whole-frame inference of every frame; the pipeline can beat it (ratio > 1) only by detecting less than every frame (motion gate, tracker) or smaller regions',
      'latency: frame handed to the pipeline → detector result, one busy stream, gate on',
      'each stream keeps one frame in flight, so a lone stream detects at most 1000/ms_p50 frames/s; the rest are dropped, not queued',
      'sustained: every stream gets ≥ 80 % of the detector runs a lone stream gets, decodes ≥ 4.5 fps, and (busy clip) has its people count in people_range ≥ 90 % of the time; latency p95 within max(2 s, 2x a lone stream)',
      "gate on is the default path: CenterNet on motion regions at their own input size, the whole frame on the first frame, with nothing tracked, every 10 s and when regions would cover most of the view; the 2 s keep-alive looks at the tracked objects' regions; the tracker carries objects along their path (velocity) while motion stays there, detecting them every 3rd frame (detectEvery); new motion meanwhile is detected at once on its own regions",
      "input_kpx_per_frame: model input pixels per frame of video handled (thousands): the detector's work per frame independent of machine load (a 512x512 whole frame is 262)",
      'gate off sends every frame whole (the path before the motion gate, with nothing skipped)',
      'effective frames/s per core: frames of video the pipeline handled (not dropped) divided by the seconds of inference the pool spent on them (busy_ms); the limit is whole-frame raw inference, so ratio > 1 means fewer detector-seconds per frame than detecting every frame whole',
    ],
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
