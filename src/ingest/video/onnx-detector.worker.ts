/**
 * Detector worker thread on ONNX Runtime: one session of the configured model
 * (models/onnx-detector.ts), fed by detector-pool.ts through the shared worker pool
 * (ingest/inference/worker-pool.ts). The tfjs-wasm worker (centernet.worker.ts) is the fallback
 * when the native library cannot load.
 */
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { OnnxDetector, type OnnxDetectorOptions, type OrtModule } from './models/onnx-detector.ts';
import type { DetectRequest, WorkerReply } from './centernet.worker.ts';

const require = createRequire(import.meta.url);

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('onnx-detector.worker.ts must run in a worker thread');
  const ort = require('onnxruntime-node') as OrtModule;
  const net = await OnnxDetector.load(ort, workerData as OnnxDetectorOptions);
  // the first run sets up the session's kernels; do it before declaring readiness
  await net.detect({ width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) });
  let queue = Promise.resolve();
  port.on('message', (req: DetectRequest) => {
    queue = queue.then(async () => {
      const started = performance.now();
      const pixels = net.pixels;
      const inferMs = net.inferMs;
      try {
        const objects = await net.detect(req);
        port.postMessage({
          type: 'result',
          id: req.id,
          objects,
          ms: performance.now() - started,
          pixels: net.pixels - pixels,
          infer_ms: net.inferMs - inferMs,
        } satisfies WorkerReply);
      } catch (err) {
        port.postMessage({ type: 'error', id: req.id, message: String((err as Error)?.message ?? err) } satisfies WorkerReply);
      }
    });
  });
  port.postMessage({ type: 'ready' } satisfies WorkerReply);
}

await serve();
