import { startTsxWorker } from '../../platform/lib/index.ts';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';

/**
 * The worker-thread pool every model runs in (the object detector and the face engine): a fixed
 * number of threads, each with its own copy of the model, fed first-in first-out from one queue.
 * A crashed thread fails the one job it held and is replaced. See docs/decisions.md,
 * 'CenterNet on ONNX Runtime'.
 *
 * A worker answers each `{ id, ... }` request with `{ type: 'result', id, ms, ... }` or
 * `{ type: 'error', id, message }`, and posts `{ type: 'ready' }` once its model is loaded.
 */
export type PoolReply<R> = { type: 'ready' } | ({ type: 'result'; id: number; ms: number } & R) | { type: 'error'; id: number; message: string };

export interface WorkerPoolOptions {
  /** the worker module (a .ts file, started through tsx) */
  url: string;
  /** handed to every worker as workerData */
  data: unknown;
  /** threads; clamped to 1..availableParallelism() */
  workers: number;
  /** requests waiting for a thread before run() refuses more */
  maxQueue: number;
  /** names the pool in errors ('detector', 'face engine') */
  name: string;
  /** the error run() throws when the queue is full */
  overloaded(queued: number): Error;
}

export interface WorkerPoolStats {
  workers: number;
  busy: number;
  queued: number;
  /** jobs completed */
  jobs: number;
  /** mean time inside the worker of the last 100 jobs, ms */
  mean_ms: number;
  /** time inside the workers summed over every job since the pool started, ms */
  busy_ms: number;
}

export interface WorkerPool<Q, R> {
  readonly size: number;
  /** Posts `request` (with an id added) to the next free thread; resolves with its reply. */
  run(request: Q, transfer?: ArrayBuffer[]): Promise<R & { ms: number }>;
  stats(): WorkerPoolStats;
  close(): Promise<void>;
}

interface Job<Q, R> {
  id: number;
  request: Q;
  transfer?: ArrayBuffer[];
  resolve(reply: R & { ms: number }): void;
  reject(err: Error): void;
}

interface Slot<Q, R> {
  worker: Worker;
  job: Job<Q, R> | null;
}

/** Threads for a pool that should use the machine: one per core (each model session runs one thread). */
export function threadsForMachine(): number {
  return Math.max(1, availableParallelism());
}

/** A pool's mutable state, shared by its dispatcher, its threads' listeners and its handle. */
interface PoolState<Q, R> {
  o: WorkerPoolOptions;
  slots: Array<Slot<Q, R>>;
  queue: Array<Job<Q, R>>;
  /** time inside the worker of the last 100 jobs, ms */
  timings: number[];
  jobs: number;
  busyMs: number;
  nextId: number;
  closed: boolean;
}

/** Starts the threads and resolves when every one has loaded its model (rejects, with the worker's message, when one cannot). */
export async function createWorkerPool<Q extends object, R extends object>(o: WorkerPoolOptions): Promise<WorkerPool<Q, R>> {
  const size = Math.max(1, Math.min(o.workers, availableParallelism()));
  const state: PoolState<Q, R> = { o, slots: [], queue: [], timings: [], jobs: 0, busyMs: 0, nextId: 1, closed: false };
  for (const worker of await startAll(o, size)) {
    const slot: Slot<Q, R> = { worker, job: null };
    attach(state, slot);
    state.slots.push(slot);
  }
  return poolHandle(state, size);
}

function startWorker(o: WorkerPoolOptions): Promise<Worker> {
  return startTsxWorker(o.url, o.data, `${o.name} worker`);
}

/** Starts `size` threads; when one cannot start, terminates the others and rejects with its reason. */
async function startAll(o: WorkerPoolOptions, size: number): Promise<Worker[]> {
  const started = await Promise.allSettled(Array.from({ length: size }, () => startWorker(o)));
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((s) => (s.status === 'fulfilled' ? s.value.terminate() : undefined)));
    throw failed.reason;
  }
  return started.map((s) => (s as PromiseFulfilledResult<Worker>).value);
}

/** Hands queued jobs to the free threads, first in first out. */
function dispatch<Q, R>(state: PoolState<Q, R>): void {
  for (const slot of state.slots) {
    if (slot.job || !state.queue.length) continue;
    const job = state.queue.shift()!;
    slot.job = job;
    slot.worker.postMessage({ ...job.request, id: job.id }, job.transfer ?? []);
  }
}

/** Listens to a slot's thread: its replies settle the job it holds; its exit fails that job and starts a replacement. */
function attach<Q, R>(state: PoolState<Q, R>, slot: Slot<Q, R>): void {
  slot.worker.on('message', (msg: PoolReply<R>) => settle(state, slot, msg));
  slot.worker.on('exit', () => {
    if (state.closed) return;
    // the model crashed its thread: fail the job it held, start a replacement
    slot.job?.reject(new Error(`${state.o.name} worker exited`));
    slot.job = null;
    startWorker(state.o).then(
      (w) => {
        if (state.closed) return void w.terminate();
        slot.worker = w;
        attach(state, slot);
        dispatch(state);
      },
      () => {
        /* leave the slot dead; the other workers carry on */
      },
    );
  });
}

/** A thread's reply to the job its slot holds: resolves or rejects it, counts it, and dispatches the next. */
function settle<Q, R>(state: PoolState<Q, R>, slot: Slot<Q, R>, msg: PoolReply<R>): void {
  if (msg.type === 'ready') return;
  const job = slot.job;
  if (!job || job.id !== msg.id) return;
  slot.job = null;
  if (msg.type === 'result') {
    state.jobs++;
    state.busyMs += msg.ms;
    state.timings.push(msg.ms);
    if (state.timings.length > 100) state.timings.shift();
    job.resolve(msg as R & { ms: number });
  } else {
    job.reject(new Error(`${state.o.name} failed: ${msg.message}`));
  }
  dispatch(state);
}

function poolHandle<Q, R>(state: PoolState<Q, R>, size: number): WorkerPool<Q, R> {
  const { o, slots, queue, timings } = state;
  return {
    size,
    run(request, transfer) {
      if (state.closed) return Promise.reject(new Error(`${o.name} is closed`));
      if (queue.length >= o.maxQueue) return Promise.reject(o.overloaded(queue.length));
      return new Promise((resolve, reject) => {
        queue.push({ id: state.nextId++, request, transfer, resolve, reject });
        dispatch(state);
      });
    },
    stats() {
      const mean = timings.length ? timings.reduce((a, b) => a + b, 0) / timings.length : 0;
      return {
        workers: size,
        busy: slots.filter((s) => s.job).length,
        queued: queue.length,
        jobs: state.jobs,
        mean_ms: Math.round(mean * 10) / 10,
        busy_ms: Math.round(state.busyMs),
      };
    },
    async close() {
      if (state.closed) return;
      state.closed = true;
      for (const job of queue.splice(0)) job.reject(new Error(`${o.name} is closed`));
      for (const s of slots) s.job?.reject(new Error(`${o.name} is closed`));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
