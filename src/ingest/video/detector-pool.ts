import { metrics } from '../../platform/metrics/index.ts';
import { createRequire } from 'node:module';
import { createWorkerPool, threadsForMachine, type WorkerPool } from '../inference/index.ts';
import type { CenterNetWorkerData, DetectRequest } from './centernet.worker.ts';
import { loadDetectorModel, type DetectorModel, type DetectorModelConfig, type OrtLike } from './models/detector-model.ts';
import type { OnnxDetectorOptions } from './models/onnx-detector.ts';
import type { Region } from './regions.ts';
import type { DetectedObject, RgbFrame } from './video.types.ts';

/** Anything that finds people and vehicles in a frame. */
export interface Detector {
  /**
   * Objects in the frame, boxes in frame coordinates. With `regions`, only those parts
   * of the frame are searched, each at its own input size; a detector that cannot crop may ignore
   * them and search the whole frame. `options.wholeFrame` overrides the pool's way of meeting a
   * whole frame (DetectorPoolOptions.wholeFrame) for this call.
   */
  detect(frame: RgbFrame, regions?: Region[], options?: DetectOptions): Promise<DetectedObject[]>;
}

export interface DetectOptions {
  wholeFrame?: 'aspect' | 'square';
}

/** Which runtime the detector runs on: ONNX Runtime, or tfjs-wasm when the native library could not load. */
export interface DetectorRuntime {
  runtime: 'onnxruntime' | 'tfjs-wasm';
  /** the model's decoder and file ('centernet', models/centernet.onnx) */
  model: string;
  /** why the fallback is in use; null on ONNX Runtime */
  fallback_reason: string | null;
}

export interface DetectorPoolStats {
  workers: number;
  busy: number;
  queued: number;
  frames: number;
  /** mean inference time of the last 100 frames, ms */
  mean_ms: number;
  /** inference time summed over every frame since the pool started, ms (detector CPU spent) */
  busy_ms: number;
  /** model input pixels summed over every frame since the pool started: the detector's work, independent of machine load */
  input_pixels: number;
  /** time inside ONNX Runtime's session.run summed over every frame, ms (0 on tfjs) */
  infer_ms: number;
  runtime: DetectorRuntime['runtime'];
}

/** A Detector backed by worker threads; shared by every stream of the process. */
export interface DetectorPool extends Detector {
  readonly size: number;
  readonly runtime: DetectorRuntime;
  stats(): DetectorPoolStats;
  close(): Promise<void>;
}

export interface DetectorPoolOptions {
  /** worker threads, one model each (one core each while busy); default one per core on ONNX Runtime, 1 on tfjs */
  workers?: number;
  /** minimum detection score returned; default 0.3 (the pipeline applies per-class thresholds) */
  minScore?: number;
  /** objects per frame; default 50 */
  maxDetected?: number;
  /** requests waiting for a worker before detect() refuses more; default 64 */
  maxQueue?: number;
  /**
   * How a whole frame meets the model: 'aspect' (default) keeps its aspect, longer side 512
   * (a 640×480 camera at 512×384, 3/4 of the cost); 'square' squeezes it to 512×512 as Human does.
   */
  wholeFrame?: 'aspect' | 'square';
  /** the model (VIGIL_DETECTOR_*); default the shipped CenterNet */
  model?: DetectorModelConfig;
  /** 'auto' (default): ONNX Runtime, tfjs-wasm when the native library cannot load; 'tfjs' forces the fallback (tests, the parity check) */
  runtime?: 'auto' | 'onnx' | 'tfjs';
  /** module loaded as ONNX Runtime; tests name a missing one to see the fallback */
  ortModule?: string;
  /** told once when the fallback is taken */
  onFallback?(reason: string): void;
}

export class DetectorOverloadedError extends Error {
  readonly code = 'detector_overloaded';
  constructor(queued: number) {
    super(`detector queue is full (${queued} frames waiting)`);
  }
}

const ONNX_WORKER_URL = new URL('./onnx-detector.worker.ts', import.meta.url).href;
const TFJS_WORKER_URL = new URL('./centernet.worker.ts', import.meta.url).href;
const require = createRequire(import.meta.url);

export const SHIPPED_MODEL_CONFIG: DetectorModelConfig = { file: null, decoder: null, input: null, labels: null };

/** onnxruntime-node, or the reason its native library cannot load. */
export function loadOrt(moduleName = 'onnxruntime-node'): { ort: OrtLike } | { error: string } {
  try {
    return { ort: require(moduleName) as OrtLike };
  } catch (err) {
    return { error: String((err as Error)?.message ?? err).split('\n')[0] };
  }
}

/**
 * Checks the configured detection model at start-up (DetectorModelError names the setting and the
 * problem). Null when ONNX Runtime itself cannot load and the model is the shipped one: the
 * detector will fall back to tfjs-wasm. See docs/decisions.md, 'Detection models as plugins'.
 */
export async function checkDetectorModel(config: DetectorModelConfig, ortModule?: string): Promise<DetectorModel | null> {
  const loaded = loadOrt(ortModule);
  if ('error' in loaded) {
    if (config.file === null) return null;
    throw new Error(`config: VIGIL_DETECTOR_MODEL: ONNX Runtime cannot load on this machine (${loaded.error}); a configured model needs it`);
  }
  return loadDetectorModel(config, loaded.ort);
}

/**
 * Starts worker threads, each loading the model once, and resolves when all are ready. Frames
 * queue first-in first-out; a crashed worker fails its one frame and is replaced. Runs on ONNX
 * Runtime; when its native library cannot load (and the model is the shipped CenterNet), on
 * CenterNet's tfjs-wasm original, and says so (onFallback, `runtime`).
 */
export async function createDetectorPool(o: DetectorPoolOptions = {}): Promise<DetectorPool> {
  const modelConfig = o.model ?? SHIPPED_MODEL_CONFIG;
  const minScore = o.minScore ?? 0.3;
  const maxDetected = o.maxDetected ?? 50;
  const wholeFrame = o.wholeFrame ?? 'aspect';
  let runtime: DetectorRuntime;
  let pool: WorkerPool<Omit<DetectRequest, 'id'>, { objects: DetectedObject[]; pixels: number; infer_ms?: number }>;
  const common = { maxQueue: o.maxQueue ?? 64, name: 'detector', overloaded: (q: number) => new DetectorOverloadedError(q) };

  const loaded = o.runtime === 'tfjs' ? { error: 'tfjs-wasm was asked for' } : loadOrt(o.ortModule);
  if ('ort' in loaded) {
    const model = await loadDetectorModel(modelConfig, loaded.ort);
    const workers = o.workers ?? threadsForMachine();
    const data: OnnxDetectorOptions = { model, minScore, maxDetected, wholeFrame, threads: 1 };
    pool = await createWorkerPool({ ...common, url: ONNX_WORKER_URL, data, workers });
    runtime = { runtime: 'onnxruntime', model: `${model.decoder} ${model.shipped ? 'models/centernet.onnx' : model.file}`, fallback_reason: null };
  } else {
    if (o.runtime === 'onnx') throw new Error(`ONNX Runtime cannot load: ${loaded.error}`);
    if (modelConfig.file !== null)
      throw new Error(`config: VIGIL_DETECTOR_MODEL: ONNX Runtime cannot load on this machine (${loaded.error}); a configured model needs it`);
    const data: CenterNetWorkerData = { minScore, maxDetected, wholeFrame };
    // the wasm backend cannot use threads in Node and a thread is ~4× slower than ONNX Runtime's
    pool = await createWorkerPool({ ...common, url: TFJS_WORKER_URL, data, workers: o.workers ?? 1 });
    runtime = {
      runtime: 'tfjs-wasm',
      model: 'centernet @vladmandic/human models/centernet.json',
      fallback_reason: `ONNX Runtime cannot load: ${loaded.error}`,
    };
    if (o.runtime !== 'tfjs') o.onFallback?.(runtime.fallback_reason!);
  }

  let inputPixels = 0;
  let inferMs = 0;
  return {
    size: pool.size,
    runtime,
    async detect(frame, regions, options) {
      const req: Omit<DetectRequest, 'id'> = {
        width: frame.width,
        height: frame.height,
        data: frame.data,
        ...(regions?.length ? { regions } : {}),
        ...(options?.wholeFrame ? { wholeFrame: options.wholeFrame } : {}),
      };
      const reply = await pool.run(req);
      inputPixels += reply.pixels;
      inferMs += reply.infer_ms ?? 0;
      metrics().detectorFrame(reply.ms);
      return reply.objects;
    },
    stats() {
      const s = pool.stats();
      return {
        workers: s.workers,
        busy: s.busy,
        queued: s.queued,
        frames: s.jobs,
        mean_ms: s.mean_ms,
        busy_ms: s.busy_ms,
        input_pixels: inputPixels,
        infer_ms: Math.round(inferMs),
        runtime: runtime.runtime,
      };
    },
    close: () => pool.close(),
  };
}
