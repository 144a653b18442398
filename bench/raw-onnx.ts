/**
 * The detector's limit for bench/video.bench.ts: raw ONNX Runtime inference of the shipped
 * CenterNet (models/centernet.onnx) on this thread, as the detector's workers run it (one
 * intra-op thread, whole frames at their aspect, longer side 512): a tensor over the frame's
 * bytes, session.run, nothing else. No worker thread, no transfer, no decoding of boxes, no NMS,
 * no pool: what one frame of inference costs on this machine.
 */
import { createRequire } from 'node:module';
import { SHIPPED_CENTERNET } from '../src/ingest/video/models/detector-model.ts';
import type { OrtModule } from '../src/ingest/video/models/onnx-detector.ts';
import { wholeInput } from '../src/ingest/video/regions.ts';
import type { RgbFrame } from '../src/ingest/video/video.types.ts';

const require = createRequire(import.meta.url);

export async function loadRawOnnx(): Promise<(frame: RgbFrame) => Promise<number>> {
  const ort = require('onnxruntime-node') as OrtModule;
  const session = await ort.InferenceSession.create(SHIPPED_CENTERNET, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  /** Inference on one frame; resolves with the number of peaks over 0.3. */
  const infer = async (frame: RgbFrame) => {
    const [w, h] = wholeInput(frame.width, frame.height);
    const out = await session.run({
      image: new ort.Tensor('uint8', frame.data, [1, frame.height, frame.width, 3]),
      size: new ort.Tensor('int64', BigInt64Array.of(BigInt(h), BigInt(w)), [2]),
    });
    return Array.from(out.scores.data as Float32Array).filter((s) => s >= 0.3).length;
  };
  await infer({ width: 64, height: 64, data: new Uint8Array(64 * 64 * 3) });
  return infer;
}
