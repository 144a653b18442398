import pino from 'pino';
import { token } from './container.ts';

/** The logger services are handed (pino's shape, cut to what they use). */
export interface Log {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** null until a logger is configured (the CLI and tests run without one). */
export const LOG = token<Log | undefined>('log');

/**
 * The process's logger (issue 12 §6): JSON lines, each carrying `node_id` so the lines of many
 * nodes can be told apart once collected; request lines also carry `request_id` (the
 * X-Request-Id the client saw). The HTTP app and the services log through this one logger.
 */
export function createProcessLogger(opts: { level: string; nodeId: string; destination?: pino.DestinationStream }): pino.Logger {
  return pino({ level: opts.level, base: { node_id: opts.nodeId, pid: process.pid } }, opts.destination ?? processLogDestination());
}

/** How long a line may wait in the log buffer before it is written (a quiet server's lines too). */
export const LOG_FLUSH_MS = 100;

/**
 * Where the process logs (standard output unless told otherwise), buffered (issue 16 §4): pino's
 * default destination hands every line to the thread pool on its own when nothing else is being
 * written, a thread hand-off per request line (about 10 µs of CPU each under load, several times
 * the cost of building the line). Lines are written once 4 KiB have gathered or `LOG_FLUSH_MS` has
 * passed, and whatever is buffered is written synchronously when the process exits (pino's exit
 * handler), so only a process killed outright (SIGKILL) can lose its last fraction of a second.
 */
export function processLogDestination(dest: number | string = 1): pino.DestinationStream {
  // periodicFlush is a sonic-boom option pino passes through but does not declare
  return pino.destination({ dest, sync: false, minLength: 4096, periodicFlush: LOG_FLUSH_MS } as Parameters<typeof pino.destination>[0] & { periodicFlush: number });
}
