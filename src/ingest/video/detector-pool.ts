import { metrics } from '../../platform/metrics/index.ts';
import { startTsxWorker } from '../../platform/lib/index.ts';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { CenterNetWorkerData, DetectRequest, WorkerReply } from './centernet.worker.ts';
import type { Region } from './regions.ts';
import type { DetectedObject, RgbFrame } from './video.types.ts';

/** Anything that finds people and vehicles in a frame. */
export interface Detector {
  /**
   * Objects in the frame, boxes in frame coordinates. With `regions` (issue 16), only those parts
   * of the frame are searched, each at its own input size; a detector that cannot crop may ignore
   * them and search the whole frame. `options.wholeFrame` overrides the pool's way of meeting a
   * whole frame (DetectorPoolOptions.wholeFrame) for this call.
   */
  detect(frame: RgbFrame, regions?: Region[], options?: DetectOptions): Promise<DetectedObject[]>;
}

export interface DetectOptions {
  wholeFrame?: 'aspect' | 'square';
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
}

/** A Detector backed by worker threads; shared by every stream of the process. */
export interface DetectorPool extends Detector {
  readonly size: number;
  stats(): DetectorPoolStats;
  close(): Promise<void>;
}

export interface DetectorPoolOptions {
  /** worker threads, one model each (~30 MB, one core each while busy); default 1 */
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
}

export class DetectorOverloadedError extends Error {
  readonly code = 'detector_overloaded';
  constructor(queued: number) {
    super(`detector queue is full (${queued} frames waiting)`);
  }
}

interface Job {
  id: number;
  frame: RgbFrame;
  regions?: Region[];
  wholeFrame?: 'aspect' | 'square';
  resolve(objects: DetectedObject[]): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

const WORKER_URL = new URL('./centernet.worker.ts', import.meta.url).href;

/**
 * Starts worker threads, each loading CenterNet once, and resolves when all are ready. Frames
 * queue first-in first-out; a crashed worker fails its one frame and is replaced.
 */
export async function createDetectorPool(o: DetectorPoolOptions = {}): Promise<DetectorPool> {
  const size = Math.max(1, Math.min(o.workers ?? 1, availableParallelism()));
  const data: CenterNetWorkerData = { minScore: o.minScore ?? 0.3, maxDetected: o.maxDetected ?? 50, wholeFrame: o.wholeFrame ?? 'aspect' };
  const maxQueue = o.maxQueue ?? 64;
  const slots: Slot[] = [];
  const queue: Job[] = [];
  const timings: number[] = [];
  let frames = 0;
  let busyMs = 0;
  let inputPixels = 0;
  let nextId = 1;
  let closed = false;

  const dispatch = () => {
    for (const slot of slots) {
      if (slot.job || !queue.length) continue;
      const job = queue.shift()!;
      slot.job = job;
      const req: DetectRequest = { id: job.id, width: job.frame.width, height: job.frame.height, data: job.frame.data, ...(job.regions?.length ? { regions: job.regions } : {}), ...(job.wholeFrame ? { wholeFrame: job.wholeFrame } : {}) };
      slot.worker.postMessage(req);
    }
  };

  const attach = (slot: Slot) => {
    slot.worker.on('message', (msg: WorkerReply) => {
      if (msg.type === 'ready') return;
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      slot.job = null;
      if (msg.type === 'result') {
        frames++;
        busyMs += msg.ms;
        inputPixels += msg.pixels;
        metrics().detectorFrame(msg.ms);
        timings.push(msg.ms);
        if (timings.length > 100) timings.shift();
        job.resolve(msg.objects);
      } else {
        job.reject(new Error(`detector failed: ${msg.message}`));
      }
      dispatch();
    });
    slot.worker.on('exit', () => {
      if (closed) return;
      // the model crashed its thread: fail the frame it held, start a replacement
      slot.job?.reject(new Error('detector worker exited'));
      slot.job = null;
      startWorker(data).then(
        (w) => {
          if (closed) return void w.terminate();
          slot.worker = w;
          attach(slot);
          dispatch();
        },
        () => {
          /* leave the slot dead; the other workers carry on */
        },
      );
    });
  };

  const workers = await Promise.all(Array.from({ length: size }, () => startWorker(data)));
  for (const worker of workers) {
    const slot: Slot = { worker, job: null };
    attach(slot);
    slots.push(slot);
  }

  return {
    size,
    detect(frame, regions, options) {
      if (closed) return Promise.reject(new Error('detector pool is closed'));
      if (queue.length >= maxQueue) return Promise.reject(new DetectorOverloadedError(queue.length));
      return new Promise<DetectedObject[]>((resolve, reject) => {
        queue.push({ id: nextId++, frame, regions, wholeFrame: options?.wholeFrame, resolve, reject });
        dispatch();
      });
    },
    stats() {
      const mean = timings.length ? timings.reduce((a, b) => a + b, 0) / timings.length : 0;
      return { workers: size, busy: slots.filter((s) => s.job).length, queued: queue.length, frames, mean_ms: Math.round(mean * 10) / 10, busy_ms: Math.round(busyMs), input_pixels: inputPixels };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of queue.splice(0)) job.reject(new Error('detector pool is closed'));
      for (const s of slots) s.job?.reject(new Error('detector pool is closed'));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

function startWorker(data: CenterNetWorkerData): Promise<Worker> {
  return startTsxWorker(WORKER_URL, data, 'detector worker');
}
