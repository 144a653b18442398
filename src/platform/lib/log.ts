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
  return pino({ level: opts.level, base: { node_id: opts.nodeId, pid: process.pid } }, opts.destination);
}
