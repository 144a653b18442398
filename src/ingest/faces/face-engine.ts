import { createWorkerPool } from '../inference/index.ts';
import { cropRgb, decodeJpeg, encodeCropJpeg, FaceImageError, growBox } from './face-image.ts';
import type { FaceRequest, FaceWorkerData, WireFace } from './face.worker.ts';
import type { DescribedFace, DetectedFace, NormalizedBox, RgbFrame } from './face.types.ts';
import { shippedFaceModel, type FaceModel } from './face-embedder.ts';

/**
 * Smallest face (side in pixels of the image it was found in) whose descriptor is trusted in
 * live recognition. FaceRes looks at 224×224; shrunk faces drift towards a generic face
 * (bench/faces.bench.ts, `min_face_size`): at ~56 px the worst same-person similarity to the
 * full-size portraits is still 0.84 and the best different-person one 0.71, either side of
 * MATCH_THRESHOLD with room; at ~48 px a stranger reached 0.73, at ~40 px a person fell to 0.74.
 * A smaller face is treated as not seen (no verdict), never as "unrecognized".
 */
export const MIN_FACE_PX = 56;

/** Enrolment is the reference every later sighting is compared with: ask for a clearer face. */
export const MIN_ENROL_FACE_PX = 64;

/**
 * In an enrolment photo, faces smaller than this share of the largest one are background people
 * and ignored; two faces above it make the photo ambiguous (`several_faces`).
 */
export const SEVERAL_FACES_RATIO = 0.5;

export interface FaceEngineOptions {
  /** worker threads, one set of models each (9 MB of weights); default 1 */
  workers?: number;
  /** minimum face confidence; default 0.5 */
  minScore?: number;
  /** faces per image; default 10 */
  maxFaces?: number;
  /** confirm each face and tighten its box with FaceMesh before describing; default true */
  mesh?: boolean;
  /** requests waiting for a worker before calls are refused; default 64 */
  maxQueue?: number;
  /** what describes faces (loadFaceModel: FaceRes, or the user's ONNX embedder); default FaceRes */
  model?: FaceModel;
}

export interface FaceEngineStats {
  workers: number;
  busy: number;
  queued: number;
  calls: number;
  /** mean time of the last 100 calls inside the worker, ms */
  mean_ms: number;
}

/** The enrolment face of a photo: its descriptor and a JPEG crop around it. */
export interface BestFace {
  descriptor: Float32Array;
  /** JPEG of the face with a margin; keep only when the caller asked (keep_image) */
  crop: Buffer;
  box: NormalizedBox;
  score: number;
  size: number;
}

/** Face detection and description on Human's models, in worker threads. */
export interface FaceEngine {
  readonly size: number;
  /** what describes faces: its id (stored with enrolled faces), descriptor length and match threshold */
  readonly model: FaceModel;
  /** Faces in an image (decoded frame, or JPEG bytes), largest first; boxes only (no descriptor cost). */
  detectFaces(image: RgbFrame | Buffer): Promise<DetectedFace[]>;
  /** Faces in an image (decoded frame, or JPEG bytes) with their descriptors, largest first. */
  describeFaces(image: RgbFrame | Buffer): Promise<DescribedFace[]>;
  /**
   * The descriptor of one face already found in `image` (by detectFaces): the face is cut out
   * with a margin and described alone. Null when it is no longer found there.
   */
  describe(image: RgbFrame, face: DetectedFace): Promise<Float32Array | null>;
  /** The one face of an enrolment JPEG; FaceImageError when none, several or too small. */
  bestFace(jpeg: Buffer): Promise<BestFace>;
  stats(): FaceEngineStats;
  close(): Promise<void>;
}

export class FaceEngineOverloadedError extends Error {
  readonly code = 'face_engine_overloaded';
  constructor(queued: number) {
    super(`face engine queue is full (${queued} images waiting)`);
  }
}

const WORKER_URL = new URL('./face.worker.ts', import.meta.url).href;

const bySizeDesc = <T extends DetectedFace>(faces: T[]) => faces.sort((a, b) => b.size - a.size);

/**
 * Starts the worker threads (each loads BlazeFace, FaceMesh and FaceRes once) and resolves when
 * all are ready. Images queue first-in first-out; a crashed worker fails its one image and is
 * replaced.
 */
export async function createFaceEngine(o: FaceEngineOptions = {}): Promise<FaceEngine> {
  const model = o.model ?? shippedFaceModel();
  const data: FaceWorkerData = { minScore: o.minScore ?? 0.5, maxFaces: o.maxFaces ?? 10, mesh: o.mesh ?? true, embedder: model.onnx };
  // the same pool as the object detector's (ingest/inference/worker-pool.ts)
  const pool = await createWorkerPool<Omit<FaceRequest, 'id'>, { faces: WireFace[] }>({
    url: WORKER_URL,
    data,
    workers: o.workers ?? 1,
    maxQueue: o.maxQueue ?? 64,
    name: 'face engine',
    overloaded: (queued) => new FaceEngineOverloadedError(queued),
  });

  const run = async (input: RgbFrame | Buffer, describe: boolean): Promise<WireFace[]> => {
    const image = Buffer.isBuffer(input) ? await decodeJpeg(input) : input;
    const reply = await pool.run({ width: image.width, height: image.height, data: image.data, describe });
    return reply.faces;
  };

  const describeFaces = async (image: RgbFrame | Buffer): Promise<DescribedFace[]> => {
    const faces = await run(image, true);
    return bySizeDesc(faces.filter((f): f is DescribedFace => f.descriptor instanceof Float32Array && f.descriptor.length > 0));
  };

  return {
    size: pool.size,
    model,
    async detectFaces(image) {
      const faces = await run(image, false);
      return bySizeDesc(faces.map(({ box, score, size }) => ({ box, score, size })));
    },
    describeFaces,
    async describe(image, face) {
      // a margin of one face around it: the detector needs context to find the face again
      const region = growBox(face.box, 3);
      const crop = cropRgb(image, region);
      const found = await describeFaces(crop);
      // the face nearest the crop's centre is the one asked about
      const near = found.map((f) => ({ f, d: Math.hypot(f.box[0] + f.box[2] / 2 - 0.5, f.box[1] + f.box[3] / 2 - 0.5) })).sort((a, b) => a.d - b.d)[0];
      return near && near.d < 0.25 ? near.f.descriptor : null;
    },
    async bestFace(jpeg) {
      const image = await decodeJpeg(jpeg);
      const faces = await describeFaces(image);
      if (!faces.length) throw new FaceImageError('no_face', 'no face was found in the image');
      const [largest] = faces;
      const peers = faces.filter((f) => f.size >= largest.size * SEVERAL_FACES_RATIO);
      if (peers.length > 1) {
        throw new FaceImageError('several_faces', `${peers.length} faces of similar size were found; send a photo with one person's face`);
      }
      if (largest.size < MIN_ENROL_FACE_PX) {
        throw new FaceImageError('face_too_small', `the face is ${largest.size} px across; at least ${MIN_ENROL_FACE_PX} px is needed`);
      }
      const crop = await encodeCropJpeg(image, growBox(largest.box, 1.4));
      return { descriptor: largest.descriptor, crop, box: largest.box, score: largest.score, size: largest.size };
    },
    stats() {
      const { workers, busy, queued, jobs, mean_ms } = pool.stats();
      return { workers, busy, queued, calls: jobs, mean_ms };
    },
    close: () => pool.close(),
  };
}
