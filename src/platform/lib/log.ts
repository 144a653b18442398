import { token } from './container.ts';

/** The logger services are handed (pino's shape, cut to what they use). */
export interface Log {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** null until a logger is configured (the CLI and tests run without one). */
export const LOG = token<Log | undefined>('log');
