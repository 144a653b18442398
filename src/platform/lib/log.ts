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

/**
 * Where the process logs (standard output unless told otherwise), written synchronously (issue 16
 * §4): pino's default destination hands each line to the thread pool when nothing else is being
 * written, a thread hand-off per request line that cost about 10 µs of CPU per request under load,
 * several times building the line. A synchronous write(2) is what Node itself does for standard
 * output on Linux (pipes, files and terminals alike), so a line is out of the process when the log
 * call returns and none is held in memory to lose in a crash. sonic-boom's buffered mode
 * (minLength) was measured too: no cheaper, since it re-measures its whole buffer on every line.
 */
export function processLogDestination(dest: number | string = 1): pino.DestinationStream {
  return pino.destination({ dest, sync: true });
}
