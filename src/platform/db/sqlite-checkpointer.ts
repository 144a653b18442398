import { Worker } from 'node:worker_threads';

/**
 * SQLite's automatic WAL checkpoint runs inside whichever commit crosses the threshold and fsyncs
 * the database file there, stalling that commit (and the event loop) for milliseconds. We turn it
 * off on the main connection and checkpoint from a worker thread with its own connection instead:
 * a PASSIVE checkpoint never blocks writers, so the detection pipeline's commits stay short.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch (err) { parentPort.postMessage(String(err && err.message || err)); }
}, workerData.intervalMs);
parentPort.on('message', (m) => { if (m === 'stop') { clearInterval(timer); db.close(); process.exit(0); } });
`;

export function startSqliteCheckpointer(file: string, driverPath: string, intervalMs = 1000): { stop(): Promise<void> } {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver: driverPath, intervalMs } });
  worker.unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        worker.ref(); // keep the process alive until the worker has closed its connection
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
      }),
  };
}
