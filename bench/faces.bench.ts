/**
 * Face recognition (issue 14 "Bench"): face detector and descriptor ms per face, recognition cost
 * per tracked person per second at the cache's N, true-match and false-match rates over all
 * pairs of the fixtures at MATCH_THRESHOLD (plus the cross-photo figures, and the minimum face
 * size sweep behind MIN_FACE_PX), and — in this same run, so under the same machine load — raw
 * Human inference on one whole 640×480 frame: CenterNet (what the pipeline already spends per
 * frame) and the face models on the whole frame (what recognition would cost without tracks).
 * Writes bench/results/faces.json.
 *   node --import tsx bench/faces.bench.ts      (BENCH_FACE_REPEAT=15 timing rounds)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cosineSimilarity,
  createFaceEngine,
  decodeJpeg,
  MATCH_THRESHOLD,
  MIN_FACE_PX,
  TrackRecognizer,
  type FaceEngine,
  type RgbFrame,
} from '../src/ingest/faces/index.ts';
import { createDetectorPool } from '../src/video/detector-pool.ts';
import { framesFromSource, makeFaceClip } from '../tests/faces/face-clips.ts';
import {
  crossPhotoFixture,
  packageFaceDatabase,
  PEOPLE,
  portraitJpeg,
  samePhotoFixtures,
  scaledPortrait,
} from '../tests/faces/face-fixtures.ts';

const REPEAT = Number(process.env.BENCH_FACE_REPEAT ?? 15);
/** the cache's N and the pipeline's detect rate */
const EVERY_N = 5;
const FPS = 5;
const THRESHOLDS = [0.65, 0.7, 0.75, 0.8, 0.85];

const round1 = (v: number) => Math.round(v * 10) / 10;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
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
    for (let j = i + 1; j < items.length; j++) out.push({ same: items[i].person === items[j].person, similarity: cosineSimilarity(items[i].descriptor, items[j].descriptor) });
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
      note: "@vladmandic/human demo/facematch/faces.json: FaceRes descriptors of 36 named people in 40 photos; its same-person pairs are all different photos",
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
    rows.push({ target_px: px, measured_px: sizes, faces_found: `${found}/${PEOPLE.length}`, same_person_similarity_min: round3(sameMin), different_person_similarity_max: round3(diffMax) });
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
  for (let r = 0; r < REPEAT; r++) {
    for (const img of portraits) {
      const [, d] = await timed(() => engine.detectFaces(img));
      const [, f] = await timed(() => engine.describeFaces(img));
      detect.push(d);
      describe.push(f);
      descriptor.push(f - d);
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
  };
}

/**
 * A stranger (never recognized, so described every N frames for as long as they stay) and an
 * enrolled person (described until recognized) walking through a door camera's view, decoded
 * by FfmpegFrameSource at 5 fps: engine time spent per second of video per tracked person.
 */
async function measureTrackCost(engine: FaceEngine) {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-face-bench-'));
  try {
    const enrolled = [{ personId: 'person_mia', descriptor: (await engine.bestFace(await portraitJpeg('mia'))).descriptor }];
    const out: Record<string, unknown> = {};
    for (const [name, person] of [['stranger', 'chelsea'], ['enrolled', 'mia']] as const) {
      const seconds = 6;
      const clip = await makeFaceClip(dir, name, await portraitJpeg(person), seconds + 1);
      const frames = await framesFromSource(clip, seconds * FPS + FPS);
      const video = frames.slice(FPS); // the first second is the empty doorway
      let busy = 0;
      const spy = {
        async describeFaces(img: RgbFrame) {
          const [faces, ms] = await timed(() => engine.describeFaces(img));
          busy += ms;
          return faces;
        },
      };
      const recognizer = new TrackRecognizer(spy, { everyNFrames: EVERY_N });
      let verdict;
      for (let i = 0; i < video.length; i++) verdict = await recognizer.observe('t', i, video[i], [0, 0, 1, 1], enrolled);
      out[name] = {
        seconds_of_video: video.length / FPS,
        descriptors: recognizer.descriptorCount('t'),
        verdict: verdict?.status ?? null,
        similarity: verdict ? round3(verdict.similarity ?? NaN) : null,
        engine_ms_per_tracked_person_per_s: round1(busy / (video.length / FPS)),
        core_share_per_tracked_person: round3(busy / (video.length / FPS) / 1000),
      };
    }
    return { every_n_frames: EVERY_N, detect_fps: FPS, ...out };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Raw Human on one whole 640×480 frame (a face in a doorway): CenterNet, and the face models. */
async function measureRawFrame(engine: FaceEngine) {
  const dir = await mkdtemp(join(tmpdir(), 'vigil-face-bench-'));
  try {
    const clip = await makeFaceClip(dir, 'frame', await portraitJpeg('esma'), 3);
    const frame = (await framesFromSource(clip, 10))[9];
    const pool = await createDetectorPool({ workers: 1 });
    const centernet: number[] = [];
    const faces: number[] = [];
    try {
      for (let r = 0; r < REPEAT; r++) {
        centernet.push((await timed(() => pool.detect(frame)))[1]);
        faces.push((await timed(() => engine.describeFaces(frame)))[1]);
      }
    } finally {
      await pool.close();
    }
    const c50 = percentile(centernet, 50);
    return {
      frame: `${frame.width}x${frame.height}`,
      centernet_ms_p50: round1(c50),
      centernet_ms_p95: round1(percentile(centernet, 95)),
      centernet_core_share_at_5fps: round3((c50 * FPS) / 1000),
      face_models_whole_frame_ms_p50: round1(percentile(faces, 50)),
      face_models_whole_frame_ms_p95: round1(percentile(faces, 95)),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const loadBefore = loadavg()[0];
const [engine, startMs] = await timed(() => createFaceEngine({ workers: 1 }));
try {
  const matching = await measureMatching(engine);
  const minFaceSize = await measureMinFaceSize(engine, matching.descriptors);
  const times = await measureFaceTimes(engine);
  const track = await measureTrackCost(engine);
  const raw = await measureRawFrame(engine);
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
    models: 'BlazeFace (detector) + FaceMesh (confirms the face) + FaceRes (1024-d descriptor), @vladmandic/human 3.3.6 on tfjs-backend-wasm, one worker thread',
    engine_start_ms: Math.round(startMs),
    match_threshold: MATCH_THRESHOLD,
    min_face_px: MIN_FACE_PX,
    matching: matchingFigures,
    min_face_size: minFaceSize,
    face_times: times,
    recognition_cost: track,
    raw_frame_same_run: raw,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/faces.json', JSON.stringify(result, null, 2) + '\n');
  console.log(JSON.stringify(result, null, 2));
} finally {
  await engine.close();
}
