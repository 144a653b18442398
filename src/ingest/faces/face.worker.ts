/**
 * Face worker thread: Human's face pipeline (BlazeFace detection, FaceMesh to confirm the face
 * and tighten its box, FaceRes descriptor) on the tfjs WebAssembly backend, off the main thread
 * so a face's detection and descriptor (tenths of a second: bench/results/faces.json) never
 * block the HTTP server. Started by face-engine.ts through a tsx bootstrap, like the object
 * detector (video/centernet.worker.ts).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { DetectedFace, NormalizedBox } from './face.types.ts';
import { embedderInput, type EmbedderOrt, type OnnxEmbedderSpec } from './face-embedder.ts';

export interface FaceWorkerData {
  /** faces below this confidence are dropped (BlazeFace box score, then FaceMesh face score) */
  minScore: number;
  /** most faces per image */
  maxFaces: number;
  /** run FaceMesh: confirms the face and tightens the box the descriptor is computed on */
  mesh: boolean;
  /** a face embedder of the user's own (face-embedder.ts) in place of FaceRes; null = FaceRes */
  embedder: OnnxEmbedderSpec | null;
}

export type FaceRequest = {
  id: number;
  width: number;
  height: number;
  data: Uint8Array;
  /** compute descriptors (FaceRes) as well as boxes */
  describe: boolean;
};

export type WireFace = DetectedFace & { descriptor?: Float32Array };

export type FaceWorkerReply =
  { type: 'ready' } | { type: 'result'; id: number; faces: WireFace[]; ms: number } | { type: 'error'; id: number; message: string };

/** The parts of Human's API used here (its own .d.ts is unreachable through the broken exports map). */
interface HumanFace {
  score: number;
  box: [number, number, number, number];
  boxRaw: [number, number, number, number];
  embedding?: number[];
}
interface HumanLike {
  load(): Promise<void>;
  detect(input: unknown, config?: object): Promise<{ face: HumanFace[] }>;
  tf: {
    tensor4d(data: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): { dispose(): void };
  };
}

const require = createRequire(import.meta.url);

async function createHuman(o: FaceWorkerData): Promise<HumanLike> {
  // Human's exports map has no usable subpath for its wasm build: find the package folder
  // through the entry it does export, then require dist/human.node-wasm.js by path.
  const humanDir = join(dirname(require.resolve('@vladmandic/human')), '..');
  const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  installFileFetch();
  const { Human } = require(join(humanDir, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanLike };
  const human = new Human({
    backend: 'wasm',
    wasmPath: `file://${wasmDir}/`,
    modelBasePath: `file://${join(humanDir, 'models')}/`,
    debug: false,
    async: true,
    // every image is new: Human's frame-to-frame caches would hand one track's face to another
    cacheSensitivity: 0,
    // equalization stretches the face crop's histogram before FaceRes: a face in brighter or darker light
    // then keeps its descriptor (same-person similarity under ±30% brightness rose from 0.72 to 0.79)
    filter: { enabled: false, equalization: true },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: {
        modelPath: 'blazeface.json',
        rotation: false,
        maxDetected: o.maxFaces,
        minConfidence: o.minScore,
        iouThreshold: 0.1,
        skipFrames: 0,
        skipTime: 0,
        return: false,
      },
      mesh: { enabled: o.mesh, modelPath: 'facemesh.json' },
      iris: { enabled: false },
      attention: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      description: { enabled: o.embedder === null, modelPath: 'faceres.json', skipFrames: 0, skipTime: 0, minConfidence: 0 },
    },
  });
  await human.load();
  return human;
}

/**
 * Node's fetch refuses file:// URLs, and Human loads its models through fetch. Serve file://
 * from disk in this worker only; other URLs keep the real fetch.
 */
function installFileFetch(): void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('file://')) return new Response(await readFile(new URL(url)));
    return realFetch(input, init);
  };
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * BlazeFace squeezes its whole input into 256×256: a wide or tall image (a standing person's
 * search region is about 1:2, a row of faces 4:1) would squash faces out of shape and out of
 * reach of the detector. Pad such images to a square with grey, keeping faces' proportions.
 */
function squared(req: FaceRequest): { data: Uint8Array; side: number } | null {
  const { width, height } = req;
  if (Math.max(width, height) <= Math.min(width, height) * 1.15) return null;
  const side = Math.max(width, height);
  const data = new Uint8Array(side * side * 3).fill(128);
  const rowBytes = width * 3;
  for (let y = 0; y < height; y++) data.set(req.data.subarray(y * rowBytes, (y + 1) * rowBytes), y * side * 3);
  return { data, side };
}

/** The user's ONNX embedder, loaded in this worker. */
interface Embedder {
  spec: OnnxEmbedderSpec;
  ort: EmbedderOrt;
  session: Awaited<ReturnType<EmbedderOrt['InferenceSession']['create']>>;
}

async function createEmbedder(spec: OnnxEmbedderSpec): Promise<Embedder> {
  const ort = require('onnxruntime-node') as EmbedderOrt;
  const session = await ort.InferenceSession.create(spec.file, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  return { spec, ort, session };
}

async function embed(e: Embedder, req: FaceRequest, box: NormalizedBox): Promise<Float32Array> {
  const S = e.spec.input;
  const feeds = { [e.spec.inputName]: new e.ort.Tensor('float32', embedderInput(req, box, S), [1, 3, S, S]) };
  const out = (await e.session.run(feeds))[e.spec.outputName];
  if (out.data.length !== e.spec.length) throw new Error(`the face embedder gave ${out.data.length} numbers, not ${e.spec.length}`);
  return Float32Array.from(out.data);
}

async function analyse(human: HumanLike, req: FaceRequest, embedder: Embedder | null = null): Promise<WireFace[]> {
  const square = squared(req);
  const [w, h] = square ? [square.side, square.side] : [req.width, req.height];
  const input = human.tf.tensor4d(square ? square.data : req.data, [1, h, w, 3], 'int32');
  try {
    // description is switched per call: boxes alone cost the detector (and mesh) only
    const result = await human.detect(input, { face: { description: { enabled: req.describe && !embedder } } });
    const faces: WireFace[] = [];
    for (const f of result.face) {
      // boxRaw is relative to the (padded) input; make it relative to the image given
      const x = clamp01((f.boxRaw[0] * w) / req.width);
      const y = clamp01((f.boxRaw[1] * h) / req.height);
      const box: NormalizedBox = [x, y, Math.min((f.boxRaw[2] * w) / req.width, 1 - x), Math.min((f.boxRaw[3] * h) / req.height, 1 - y)];
      const face: WireFace = { box, score: f.score, size: Math.round(Math.min(box[2] * req.width, box[3] * req.height)) };
      if (req.describe && embedder) face.descriptor = await embed(embedder, req, box);
      else if (req.describe && f.embedding?.length) face.descriptor = Float32Array.from(f.embedding);
      faces.push(face);
    }
    return faces;
  } finally {
    input.dispose();
  }
}

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('face.worker.ts must run in a worker thread');
  const data = workerData as FaceWorkerData;
  const human = await createHuman(data);
  const embedder = data.embedder ? await createEmbedder(data.embedder) : null;
  // the first inference compiles kernels; do it before declaring readiness
  await analyse(human, { id: 0, width: 64, height: 64, data: new Uint8Array(64 * 64 * 3), describe: true }, embedder);
  port.on('message', (req: FaceRequest) => {
    const started = performance.now();
    analyse(human, req, embedder).then(
      (faces) => {
        const reply: FaceWorkerReply = { type: 'result', id: req.id, faces, ms: performance.now() - started };
        port.postMessage(
          reply,
          faces.flatMap((f) => (f.descriptor ? [f.descriptor.buffer as ArrayBuffer] : [])),
        );
      },
      (err: unknown) => port.postMessage({ type: 'error', id: req.id, message: String((err as Error)?.message ?? err) } satisfies FaceWorkerReply),
    );
  });
  port.postMessage({ type: 'ready' } satisfies FaceWorkerReply);
}

await serve();
