import { Worker } from 'node:worker_threads';

/**
 * SQLite's automatic WAL checkpoint runs inside whichever commit crosses the threshold and fsyncs
 * the database file there, stalling that commit (and the event loop) for milliseconds. We turn it
 * off on the main connection and checkpoint from a worker thread with its own connection instead:
 * a PASSIVE checkpoint never blocks writers, so the detection pipeline's commits stay short.
 *
 * A PASSIVE checkpoint alone cannot keep the WAL small under sustained load. The WAL starts over
 * from its beginning only when a writer begins while every frame has been copied back; with
 * commits arriving back to back, new frames always land while a checkpoint copies the old ones,
 * so the log never catches up and grows without bound (1 GB after 75,000 detections in a probe),
 * and every frame is then appended to new file blocks, which the kernel zeroes first (14% of the
 * pipeline's CPU at 1,000 streams). So once the log has grown to `restartFrames` frames
 * since it last started over, the worker runs follow-up passes, each copying what was written
 * during the one before, until few frames arrive during a pass; then it asks the owner of the
 * writing connection for a quiet moment (`quiesce`): the owner holds its writers back
 * (asynchronously: the event loop keeps running) while the worker copies those last frames and
 * runs the checkpoint's two fsyncs (measured on a quiet machine: held 1-5 ms at 2,000
 * detections/s, 4-9 ms at 10,000, about once a second). The next write then starts the log over
 * from its beginning.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
let waiting = false;
const checkpoint = () => db.pragma('wal_checkpoint(PASSIVE)')[0];
const timer = setInterval(() => {
  if (waiting) return;
  try {
    // r.log is the log's length when the pass began: that many frames since it last started over
    let r = checkpoint();
    if (r.log < workerData.restartFrames) return;
    // each follow-up pass copies what was written during the one before, a shorter pass each
    // time, so the writers are held back only for the last few frames
    // (stopping when they no longer shrink: writers outpacing the copy get held back sooner)
    for (let i = 0, before = r.log, last = Infinity; i < 8; i++) {
      r = checkpoint();
      const arrived = r.log - before;
      before = r.log;
      if (arrived <= workerData.catchUpFrames || arrived >= last) break;
      last = arrived;
    }
    if (r.log < workerData.restartFrames) return; // a writer found it caught up and started over
    waiting = true;
    parentPort.postMessage({ type: 'quiesce' });
  } catch (err) { parentPort.postMessage({ type: 'error', message: String(err && err.message || err) }); }
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'quiet') {
    // the owner holds its writers back until 'caught_up'
    try { checkpoint(); } catch (err) { parentPort.postMessage({ type: 'error', message: String(err && err.message || err) }); }
    waiting = false;
    parentPort.postMessage({ type: 'caught_up' });
  } else if (m === 'stop') { clearInterval(timer); db.close(); process.exit(0); }
});
`;

export interface CheckpointerOptions {
  /** how often the passive checkpoint runs */
  intervalMs?: number;
  /** how long the log may grow (in frames of one page each) before the writers are held back for a catch-up */
  restartFrames?: number;
  /**
   * Runs `catchUp` while no write transaction can start on the writing connection (it holds the
   * connection's mutex) and resolves when it has. Without it the WAL is only checkpointed passively.
   */
  quiesce?: (catchUp: () => Promise<void>) => Promise<void>;
  onError?: (message: string) => void;
}

export function startSqliteCheckpointer(file: string, driverPath: string, opts: CheckpointerOptions = {}): { stop(): Promise<void> } {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      file,
      driver: driverPath,
      intervalMs: opts.intervalMs ?? 1000,
      restartFrames: opts.quiesce ? (opts.restartFrames ?? 4096) : Number.POSITIVE_INFINITY,
      catchUpFrames: 256,
    },
  });
  worker.unref();
  let stopped = false;
  let caughtUp: (() => void) | null = null;
  worker.once('exit', () => caughtUp?.());
  worker.on('message', (m: { type: string; message?: string }) => {
    if (m.type === 'error') opts.onError?.(m.message ?? 'checkpoint failed');
    else if (m.type === 'caught_up') caughtUp?.();
    else if (m.type === 'quiesce') {
      if (stopped) return;
      void opts.quiesce!(
        () =>
          new Promise<void>((resolve) => {
            if (stopped) return resolve();
            caughtUp = () => {
              caughtUp = null;
              resolve();
            };
            worker.postMessage('quiet');
          }),
      ).catch((err: unknown) => opts.onError?.(String((err as Error)?.message ?? err)));
    }
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        stopped = true;
        // a catch-up in progress must not hold the writers forever
        caughtUp?.();
        worker.ref(); // keep the process alive until the worker has closed its connection
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
