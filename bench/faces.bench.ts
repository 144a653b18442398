/**
 * Face recognition: face detector and descriptor ms per face, recognition cost
 * per tracked person per second at the cache's N, true-match and false-match rates over all
 * pairs of the fixtures at MATCH_THRESHOLD (plus the cross-photo figures, and the minimum face
 * size sweep behind MIN_FACE_PX), what the street clip vtest.avi gives (faces far too small: no
 * subtype for anyone), and — in this same run, so under the same machine load — raw
 * Human inference on one whole 640×480 frame: CenterNet (what the pipeline already spends per
 * frame) and the face models on the whole frame (what recognition would cost without tracks).
 * And the live pipeline: the same door clips through FramePipeline with and without
 * per-track recognition, so the cost is what the pipeline pays, snapshot and tracker included.
 * Writes bench/results/faces.json (BENCH_FACE_ONLY=live_pipeline runs that part alone and merges it
 * into the existing file).
 * Core shares are CPU time (the machine is shared; wall times are recorded beside them).
 *   node --import tsx bench/faces.bench.ts      (BENCH_FACE_REPEAT=15 timing rounds)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cosineSimilarity,
  createFaceEngine,
  cropRgb,
  faceSearchRegion,
  decodeJpeg,
  MATCH_THRESHOLD,
  MIN_FACE_PX,
  TrackRecognizer,
  type FaceEngine,
  type RgbFrame,
} from '../src/ingest/faces/index.ts';
import { fileURLToPath } from 'node:url';
import { createDetectorPool, type DetectorPool } from '../src/ingest/video/detector-pool.ts';
import { decodeFrames } from '../tests/fixtures-video/decode-frames.ts';
import { FramePipeline } from '../src/ingest/video/frame-pipeline.ts';
import type { TrackFaces, TrackIdentity } from '../src/ingest/video/video.types.ts';
import { systemClock } from '../src/platform/time/clock.ts';
import { framesFromSource, makeFaceClip } from '../tests/faces/face-clips.ts';
import { crossPhotoFixture, packageFaceDatabase, PEOPLE, portraitJpeg, samePhotoFixtures, scaledPortrait } from '../tests/faces/face-fixtures.ts';

const REPEAT = Number(process.env.BENCH_FACE_REPEAT ?? 15);
/** the cache's N and the pipeline's detect rate */
const EVERY_N = 5;
const FPS = 5;
const THRESHOLDS = [0.65, 0.7, 0.75, 0.8, 0.85];
/** the pipeline's person score threshold (video/frame-pipeline.ts) */
const PERSON_SCORE = 0.45;
const VTEST = fileURLToPath(new URL('../../shared/fixtures/vtest.avi', import.meta.url));

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
/**
 * Wall time and CPU time of one call. Calls here run one at a time, so the process's CPU time
 * during a call is the worker's inference (plus a little message passing): on a shared 2-core
 * machine wall time also counts waiting for a core, CPU time does not.
 */
async function timed<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const c = process.cpuUsage();
  const t = performance.now();
  const r = await fn();
  const used = process.cpuUsage(c);
  return [r, performance.now() - t, (used.user + used.system) / 1000];
}

interface Pair {
  same: boolean;
  similarity: number;
}
function rates(pairs: Pair[], threshold: number) {
  const same = pairs.filter((p) => p.same);
  const diff = pairs.filter((p) => !p.same);
  return {
    threshold,
    true_match_rate: round3(same.filter((p) => p.similarity >= threshold).length / same.length),
    false_match_rate: round3(diff.filter((p) => p.similarity >= threshold).length / diff.length),
  };
}
function allPairs<T extends { person: string; descriptor: Float32Array }>(items: T[]): Pair[] {
  const out: Pair[] = [];
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++)
      out.push({ same: items[i].person === items[j].person, similarity: cosineSimilarity(items[i].descriptor, items[j].descriptor) });
  }
  return out;
}

async function one(engine: FaceEngine, jpeg: Buffer): Promise<Float32Array> {
  const faces = await engine.describeFaces(await decodeJpeg(jpeg));
  if (faces.length !== 1) throw new Error(`expected one face, found ${faces.length}`);
  return faces[0].descriptor;
}

/** All pairs of the same-photo variants; cross-photo and package-database figures beside them. */
async function measureMatching(engine: FaceEngine) {
  const fixtures = await samePhotoFixtures();
  const described = [];
  for (const f of fixtures) described.push({ person: f.person, variant: f.variant, descriptor: await one(engine, f.jpeg) });
  const pairs = allPairs(described);
  const same = pairs.filter((p) => p.same).map((p) => p.similarity);
  const diff = pairs.filter((p) => !p.same).map((p) => p.similarity);

  const webcam = await one(engine, (await crossPhotoFixture()).jpeg);
  const crossSims = described.filter((d) => d.person === 'vlado').map((d) => cosineSimilarity(d.descriptor, webcam));
  const strangerSims = described.filter((d) => d.person !== 'vlado').map((d) => cosineSimilarity(d.descriptor, webcam));

  const db = (await packageFaceDatabase()).map((r) => ({ person: r.name, descriptor: r.descriptor }));
  const dbPairs = allPairs(db);

  return {
    fixtures: {
      people: PEOPLE.length,
      variants_per_person: fixtures.length / PEOPLE.length,
      same_person_pairs: same.length,
      different_person_pairs: diff.length,
      ...rates(pairs, MATCH_THRESHOLD),
      same_person_similarity_min: round3(Math.min(...same)),
      same_person_similarity_p05: round3(percentile(same, 5)),
      different_person_similarity_max: round3(Math.max(...diff)),
      different_person_similarity_p99: round3(percentile(diff, 99)),
      at_other_thresholds: THRESHOLDS.map((t) => rates(pairs, t)),
    },
    cross_photo: {
      note: "vlado's webcam photo against his 11 group-photo variants (a different photo, years and light apart), and against the other 44 faces",
      same_person_similarity_min: round3(Math.min(...crossSims)),
      same_person_similarity_max: round3(Math.max(...crossSims)),
      matched_share: round3(crossSims.filter((s) => s >= MATCH_THRESHOLD).length / crossSims.length),
      different_person_similarity_max: round3(Math.max(...strangerSims)),
    },
    package_face_database: {
      note: '@vladmandic/human demo/facematch/faces.json: FaceRes descriptors of 36 named people in 40 photos; its same-person pairs are all different photos',
      same_person_pairs: dbPairs.filter((p) => p.same).length,
      different_person_pairs: dbPairs.filter((p) => !p.same).length,
      ...rates(dbPairs, MATCH_THRESHOLD),
      at_other_thresholds: THRESHOLDS.map((t) => rates(dbPairs, t)),
    },
    descriptors: described,
  };
}

/** Each person's portrait shrunk so the face is about N px: worst same-person and best stranger similarity. */
async function measureMinFaceSize(engine: FaceEngine, described: Array<{ person: string; descriptor: Float32Array }>) {
  const rows = [];
  for (const px of [32, 40, 48, 56, 64, 80]) {
    let sameMin = 1;
    let diffMax = -1;
    let found = 0;
    const sizes: number[] = [];
    for (const person of PEOPLE) {
      const faces = await engine.describeFaces(await decodeJpeg(await scaledPortrait(person, px)));
      if (!faces.length) continue;
      found++;
      sizes.push(faces[0].size);
      for (const d of described) {
        const s = cosineSimilarity(d.descriptor, faces[0].descriptor);
        if (d.person === person) sameMin = Math.min(sameMin, s);
        else diffMax = Math.max(diffMax, s);
      }
    }
    rows.push({
      target_px: px,
      measured_px: sizes,
      faces_found: `${found}/${PEOPLE.length}`,
      same_person_similarity_min: round3(sameMin),
      different_person_similarity_max: round3(diffMax),
    });
  }
  return rows;
}

/** ms per face: boxes only (BlazeFace + FaceMesh), then boxes and descriptors; the descriptor is the difference. */
async function measureFaceTimes(engine: FaceEngine) {
  const portraits: RgbFrame[] = [];
  for (const p of PEOPLE) portraits.push(await decodeJpeg(await portraitJpeg(p)));
  const detect: number[] = [];
  const describe: number[] = [];
  const descriptor: number[] = [];
  const detectCpu: number[] = [];
  const describeCpu: number[] = [];
  const descriptorCpu: number[] = [];
  for (let r = 0; r < REPEAT; r++) {
    for (const img of portraits) {
      const [, d, dc] = await timed(() => engine.detectFaces(img));
      const [, f, fc] = await timed(() => engine.describeFaces(img));
      detect.push(d);
      describe.push(f);
      descriptor.push(f - d);
      detectCpu.push(dc);
      describeCpu.push(fc);
      descriptorCpu.push(fc - dc);
    }
  }
  return {
    image: '300x300 portrait, one ~125 px face (a search region around one tracked person)',
    samples: detect.length,
    detector_ms_per_face_p50: round1(percentile(detect, 50)),
    detector_ms_per_face_p95: round1(percentile(detect, 95)),
    descriptor_ms_per_face_p50: round1(percentile(descriptor, 50)),
    detect_and_describe_ms_p50: round1(percentile(describe, 50)),
    detect_and_describe_ms_p95: round1(percentile(describe, 95)),
    cpu_ms: {
      detector_per_face_p50: round1(percentile(detectCpu, 50)),
      descriptor_per_face_p50: round1(percentile(descriptorCpu, 50)),
      detect_and_describe_p50: round1(percentile(describeCpu, 50)),
    },
  };
}

/**
 * A stranger (never recognized, so described every N frames for as long as they stay) and an
 * enrolled person (described until recognized) at a door camera, decoded by FfmpegFrameSource at
 * 5 fps, the way the pipeline would run: CenterNet finds the person (score ≥ 0.45, the
 * pipeline's person threshold), faceSearchRegion picks where to look, the TrackRecognizer
 * decides whether to describe. Engine time per second of video per tracked person.
 */
async function measureTrackCost(engine: FaceEngine, pool: DetectorPool) {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-face-bench-'));
  try {
    const enrolled = [{ personId: 'person_mia', descriptor: (await engine.bestFace(await portraitJpeg('mia'))).descriptor }];
    const out: Record<string, unknown> = {};
    for (const [name, person] of [
      ['stranger', 'chelsea'],
      ['enrolled', 'mia'],
    ] as const) {
      const seconds = 6;
      const clip = await makeFaceClip(dir, name, await portraitJpeg(person), seconds + 1);
      const frames = await framesFromSource(clip, seconds * FPS + FPS);
      const video = frames.slice(FPS); // the first second is the empty doorway
      let busy = 0;
      let busyCpu = 0;
      const spy = {
        async describeFaces(img: RgbFrame) {
          const [faces, ms, cpu] = await timed(() => engine.describeFaces(img));
          busy += ms;
          busyCpu += cpu;
          return faces;
        },
      };
      const recognizer = new TrackRecognizer(spy, { everyNFrames: EVERY_N });
      let verdict;
      let personFrames = 0;
      for (let i = 0; i < video.length; i++) {
        const people = (await pool.detect(video[i])).filter((o) => o.label === 'person' && o.score >= PERSON_SCORE).sort((a, b) => b.score - a.score);
        if (!people.length) continue;
        personFrames++;
        verdict = await recognizer.observe('t', i, video[i], faceSearchRegion(people[0].box, video[i]), enrolled);
      }
      out[name] = {
        seconds_of_video: video.length / FPS,
        frames_with_a_person: `${personFrames}/${video.length}`,
        descriptors: recognizer.descriptorCount('t'),
        verdict: verdict?.status ?? null,
        similarity: verdict ? round3(verdict.similarity ?? NaN) : null,
        engine_ms_per_tracked_person_per_s: round1(busy / (video.length / FPS)),
        cpu_ms_per_tracked_person_per_s: round1(busyCpu / (video.length / FPS)),
        core_share_per_tracked_person: round3(busyCpu / (video.length / FPS) / 1000),
      };
    }
    return { every_n_frames: EVERY_N, detect_fps: FPS, ...out };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * vtest.avi (the shared street clip): every person CenterNet finds, searched for a face the way
 * the pipeline would. Faces there are far below MIN_FACE_PX, so no person gets a subtype.
 */
async function measureVtest(engine: FaceEngine, pool: DetectorPool) {
  const frames = await decodeFrames(VTEST, 40, 2);
  let persons = 0;
  let faces = 0;
  let usable = 0;
  const heights: number[] = [];
  for (const frame of frames) {
    for (const o of await pool.detect(frame)) {
      if (o.label !== 'person' || o.score < PERSON_SCORE) continue;
      persons++;
      heights.push(Math.round(o.box[3] * frame.height));
      const found = await engine.describeFaces(cropRgb(frame, faceSearchRegion(o.box, frame)));
      faces += found.length;
      usable += found.filter((f) => f.size >= MIN_FACE_PX).length;
    }
  }
  return {
    frames: frames.length,
    frame_size: `${frames[0].width}x${frames[0].height}`,
    person_sightings: persons,
    person_height_px_p50: percentile(heights, 50),
    person_height_px_max: Math.max(...heights),
    faces_found: faces,
    faces_at_least_min_size: usable,
  };
}

/** Raw Human on one whole 640×480 frame (a face in a doorway): CenterNet, and the face models. */
async function measureRawFrame(engine: FaceEngine, pool: DetectorPool) {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-face-bench-'));
  try {
    const clip = await makeFaceClip(dir, 'frame', await portraitJpeg('esma'), 3);
    const frame = (await framesFromSource(clip, 10))[9];
    const centernet: number[] = [];
    const faces: number[] = [];
    const centernetCpu: number[] = [];
    const facesCpu: number[] = [];
    for (let r = 0; r < REPEAT; r++) {
      const [, cw, cc] = await timed(() => pool.detect(frame));
      const [, fw, fc] = await timed(() => engine.describeFaces(frame));
      centernet.push(cw);
      centernetCpu.push(cc);
      faces.push(fw);
      facesCpu.push(fc);
    }
    return {
      frame: `${frame.width}x${frame.height}`,
      centernet_ms_p50: round1(percentile(centernet, 50)),
      centernet_ms_p95: round1(percentile(centernet, 95)),
      face_models_whole_frame_ms_p50: round1(percentile(faces, 50)),
      face_models_whole_frame_ms_p95: round1(percentile(faces, 95)),
      cpu_ms: {
        centernet_p50: round1(percentile(centernetCpu, 50)),
        face_models_whole_frame_p50: round1(percentile(facesCpu, 50)),
      },
      centernet_core_share_at_5fps: round3((percentile(centernetCpu, 50) * FPS) / 1000),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The door clips (a stranger, an enrolled person) through the real FramePipeline at 5 fps, each
 * frame processed to the end (detector, tracker, recognition, snapshot), once with TrackFaces over
 * a TrackRecognizer (what org/people's LiveRecognition builds per stream) and once without. CPU per
 * second of video is the pipeline's whole cost; the difference is what recognition adds.
 */
async function measureLivePipeline(engine: FaceEngine, pool: DetectorPool) {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-face-live-'));
  try {
    const enrolled = [{ personId: 'person_mia', descriptor: (await engine.bestFace(await portraitJpeg('mia'))).descriptor }];
    const out: Record<string, unknown> = {};
    for (const [name, person] of [
      ['stranger', 'chelsea'],
      ['enrolled', 'mia'],
    ] as const) {
      const seconds = 6;
      const clip = await makeFaceClip(dir, name, await portraitJpeg(person), seconds + 1);
      const frames = await framesFromSource(clip, (seconds + 1) * FPS);
      const run = async (withFaces: boolean) => {
        let looks = 0;
        const counting = { describeFaces: (img: RgbFrame) => (looks++, engine.describeFaces(img)) };
        const recognizer = new TrackRecognizer(counting, { everyNFrames: EVERY_N });
        const faces: TrackFaces = {
          async observe(trackId, frame, image, box): Promise<TrackIdentity | undefined> {
            const v = await recognizer.observe(trackId, frame, image, faceSearchRegion(box, image), enrolled);
            if (!v) return undefined;
            return v.status === 'recognized' ? { subtype: 'recognized', personId: v.personId } : { subtype: 'unrecognized', personId: null };
          },
          forget: (id) => recognizer.forget(id),
          close: () => undefined,
        };
        const subtypes: Array<string | null> = [];
        const pipeline = new FramePipeline({
          detector: pool,
          clock: systemClock,
          motionGate: false,
          ...(withFaces ? { faces } : {}),
          onDetections: (batch) => {
            for (const d of batch) if (d.type === 'person') subtypes.push(d.subtype ?? null);
          },
        });
        const t0 = Date.now();
        const [, wall, cpu] = await timed(async () => {
          for (let i = 0; i < frames.length; i++) await pipeline.process(frames[i], t0 + i * (1000 / FPS));
        });
        await pipeline.stop();
        const tracks = [...new Set(subtypes)];
        return { wall, cpu, subtypes: tracks, looks };
      };
      const without = await run(false);
      const withRec = await run(true);
      const secs = frames.length / FPS;
      out[name] = {
        seconds_of_video: secs,
        person_subtypes_reported: withRec.subtypes,
        face_searches: withRec.looks,
        without_recognition_cpu_ms_per_s: round1(without.cpu / secs),
        with_recognition_cpu_ms_per_s: round1(withRec.cpu / secs),
        recognition_cpu_ms_per_tracked_person_per_s: round1((withRec.cpu - without.cpu) / secs),
        without_recognition_wall_ms_per_frame: round1(without.wall / frames.length),
        with_recognition_wall_ms_per_frame: round1(withRec.wall / frames.length),
      };
    }
    return {
      every_n_frames: EVERY_N,
      detect_fps: FPS,
      note: 'CPU of this process (the face engine and detector workers are threads of it), one tracked person',
      ...out,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_FACE_ONLY === 'live_pipeline') {
  const engine = await createFaceEngine({ workers: 1 });
  const pool = await createDetectorPool({ workers: 1 });
  try {
    const live = await measureLivePipeline(engine, pool);
    const file = 'bench/results/faces.json';
    const previous = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const merged = { ...previous, live_pipeline: { at: new Date().toISOString(), load_average: round1(loadavg()[0]), ...live } };
    writeFileSync(file, JSON.stringify(merged, null, 2) + '\n');
    console.log(JSON.stringify(live, null, 2));
  } finally {
    await engine.close();
    await pool.close();
  }
  process.exit(0);
}

const loadBefore = loadavg()[0];
const [engine, startMs] = await timed(() => createFaceEngine({ workers: 1 }));
const pool = await createDetectorPool({ workers: 1 });
try {
  const matching = await measureMatching(engine);
  const minFaceSize = await measureMinFaceSize(engine, matching.descriptors);
  const times = await measureFaceTimes(engine);
  const track = await measureTrackCost(engine, pool);
  const vtest = await measureVtest(engine, pool);
  const raw = await measureRawFrame(engine, pool);
  const live = await measureLivePipeline(engine, pool);
  const { descriptors: _unused, ...matchingFigures } = matching;
  const result = {
    at: new Date().toISOString(),
    machine: {
      cores: availableParallelism(),
      cpu: cpus()[0]?.model.trim(),
      node: process.version,
      load_average_before: round1(loadBefore),
      load_average_after: round1(loadavg()[0]),
    },
    models:
      'BlazeFace (detector) + FaceMesh (confirms the face) + FaceRes (1024-d descriptor), @vladmandic/human 3.3.6 on tfjs-backend-wasm, one worker thread',
    engine_start_ms: Math.round(startMs),
    match_threshold: MATCH_THRESHOLD,
    min_face_px: MIN_FACE_PX,
    matching: matchingFigures,
    min_face_size: minFaceSize,
    face_times: times,
    recognition_cost: track,
    vtest_street_clip: vtest,
    raw_frame_same_run: raw,
    live_pipeline: live,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/faces.json', JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
} finally {
  await engine.close();
  await pool.close();
}
