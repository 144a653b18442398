/**
 * The detector's limit for bench/video.bench.ts: the same CenterNet model from
 * @vladmandic/human, loaded the way src/video/centernet.worker.ts loads it (wasm backend, same
 * object settings), run directly on this thread: a tensor from the frame, human.detect, dispose.
 * No worker thread, no transfer, no label mapping, no pool: what one frame of inference costs on
 * this machine. (Written out here rather than imported: the worker module starts serving when
 * imported.)
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RgbFrame } from '../src/ingest/video/video.types.ts';

interface HumanLike {
  load(): Promise<void>;
  detect(input: unknown): Promise<{ object: unknown[] }>;
  tf: { tensor4d(data: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): { dispose(): void } };
}

const require = createRequire(import.meta.url);

export async function loadRawCenterNet(): Promise<(frame: RgbFrame) => Promise<number>> {
  const humanDir = join(dirname(require.resolve('@vladmandic/human')), '..');
  const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  // Human fetches its model; Node's fetch refuses file:// (as in the worker)
  const realFetch = globalThis.fetch;
  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.startsWith('file://')) return new Response(await readFile(new URL(url)));
    return realFetch(input, init);
  };
  const { Human } = require(join(humanDir, 'dist', 'human.node-wasm.js')) as { Human: new (config: object) => HumanLike };
  const human = new Human({
    backend: 'wasm',
    wasmPath: `file://${wasmDir}/`,
    modelBasePath: `file://${join(humanDir, 'models')}/`,
    debug: false,
    async: true,
    cacheSensitivity: 0,
    filter: { enabled: false },
    face: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
    // the pool's defaults (src/video/detector-pool.ts): minScore 0.3, maxDetected 50
    object: { enabled: true, modelPath: 'centernet.json', minConfidence: 0.3, iouThreshold: 0.4, maxDetected: 50, skipFrames: 0, skipTime: 0 },
  });
  await human.load();
  /** Inference on one frame; resolves with the number of objects found. */
  const infer = async (frame: RgbFrame) => {
    const input = human.tf.tensor4d(frame.data, [1, frame.height, frame.width, 3], 'int32');
    try {
      return (await human.detect(input)).object.length;
    } finally {
      input.dispose();
    }
  };
  // the first inference compiles kernels (the worker does the same before it is ready)
  await infer({ width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) });
  return infer;
}
