// The module's public face: what other modules may import (docs/architecture.md).
/** Worker-thread pools the models run in (object detector, face engine). */
export { createWorkerPool, threadsForMachine, type PoolReply, type WorkerPool, type WorkerPoolOptions, type WorkerPoolStats } from './worker-pool.ts';
