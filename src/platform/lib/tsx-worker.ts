import { Worker } from 'node:worker_threads';

/**
 * Starts a TypeScript worker thread and resolves once it posts `{ type: 'ready' }`. Worker threads
 * do not inherit tsx's loader hooks, so the worker starts from a tiny eval'd bootstrap that
 * registers tsx and then imports the worker module. `what` names the worker in start-up errors.
 */
export function startTsxWorker(workerUrl: string, workerData: unknown, what: string): Promise<Worker> {
  const tsxApi = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsxApi)}).then((t) => { t.register(); return import(${JSON.stringify(workerUrl)}); });`;
  const worker = new Worker(boot, { eval: true, workerData });
  return new Promise((resolve, reject) => {
    const onMessage = (msg: { type?: string }) => {
      if (msg?.type !== 'ready') return;
      cleanup();
      resolve(worker);
    };
    const onError = (err: Error) => {
      cleanup();
      void worker.terminate();
      reject(new Error(`${what} failed to start: ${err.message}`));
    };
    const onExit = (code: number) => {
      cleanup();
      reject(new Error(`${what} exited during start (code ${code})`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}
