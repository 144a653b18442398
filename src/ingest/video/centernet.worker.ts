/**
 * Detector worker thread: one CenterNet model (from @vladmandic/human, COCO classes) on the
 * tfjs WebAssembly backend. Runs off the main thread so inference (~100–250 ms a frame) never
 * blocks the HTTP server. Started by detector-pool.ts through a tsx bootstrap.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { DetectedObject, ObjectLabel } from './video.types.ts';

export interface CenterNetWorkerData {
  /** minimum score the model reports */
  minScore: number;
  /** most objects per frame */
  maxDetected: number;
}

export type DetectRequest = { id: number; width: number; height: number; data: Uint8Array };
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; objects: DetectedObject[]; ms: number }
  | { type: 'error'; id: number; message: string };

/** The parts of Human's API used here (its own .d.ts is unreachable through the broken exports map). */
interface HumanLike {
  load(): Promise<void>;
  detect(input: unknown): Promise<{ object: Array<{ label: string; score: number; boxRaw: [number, number, number, number] }> }>;
  tf: {
    tensor4d(data: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): { dispose(): void };
  };
}

/** COCO labels folded into Vigil's classes; everything else is ignored. */
const LABELS: Record<string, ObjectLabel> = {
  person: 'person',
  cat: 'cat',
  dog: 'dog',
  car: 'vehicle',
  truck: 'vehicle',
  bus: 'vehicle',
  motorcycle: 'vehicle',
};

const require = createRequire(import.meta.url);

async function createHuman(opts: CenterNetWorkerData): Promise<HumanLike> {
  // Human's exports map has no usable subpath for its wasm build: find the package folder
  // through the entry it does export, then require dist/human.node-wasm.js by path.
  const humanDir = join(dirname(require.resolve('@vladmandic/human')), '..');
  const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  const modelDir = join(humanDir, 'models');
  installFileFetch();
  const { Human } = require(join(humanDir, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanLike };
  const human = new Human({
    backend: 'wasm',
    wasmPath: `file://${wasmDir}/`,
    modelBasePath: `file://${modelDir}/`,
    debug: false,
    async: true,
    cacheSensitivity: 0, // every frame is new: the pipeline's motion gate decides what to skip
    filter: { enabled: false },
    face: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    object: {
      enabled: true,
      modelPath: 'centernet.json',
      minConfidence: opts.minScore,
      iouThreshold: 0.4,
      maxDetected: opts.maxDetected,
      skipFrames: 0,
      skipTime: 0,
    },
  });
  await human.load();
  return human;
}

/**
 * Node's fetch refuses file:// URLs, and Human loads its model through fetch. Serve file://
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

async function detectObjects(human: HumanLike, req: DetectRequest): Promise<DetectedObject[]> {
  const input = human.tf.tensor4d(req.data, [1, req.height, req.width, 3], 'int32');
  try {
    const result = await human.detect(input);
    const out: DetectedObject[] = [];
    for (const o of result.object) {
      const label = LABELS[o.label];
      if (!label) continue;
      const [x, y, w, h] = o.boxRaw.map((v) => Math.min(1, Math.max(0, v)));
      out.push({ label, score: o.score, box: [x, y, Math.min(w, 1 - x), Math.min(h, 1 - y)] });
    }
    return out;
  } finally {
    input.dispose();
  }
}

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('centernet.worker.ts must run in a worker thread');
  const human = await createHuman(workerData as CenterNetWorkerData);
  // the first inference compiles kernels; do it before declaring readiness
  await detectObjects(human, { id: 0, width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) });
  port.on('message', (req: DetectRequest) => {
    const started = performance.now();
    detectObjects(human, req).then(
      (objects) => port.postMessage({ type: 'result', id: req.id, objects, ms: performance.now() - started } satisfies WorkerReply),
      (err: unknown) => port.postMessage({ type: 'error', id: req.id, message: String((err as Error)?.message ?? err) } satisfies WorkerReply),
    );
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

await serve();
