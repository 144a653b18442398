import pino from 'pino';
import { constants, fstatSync, openSync, writeSync } from 'node:fs';
import { token } from './container.ts';

/** The logger services are handed (pino's shape, cut to what they use). */
export interface Log {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** null until a logger is configured (the CLI and tests run without one). */
export const LOG = token<Log | undefined>('log');

/**
 * The process's logger: JSON lines, each carrying `node_id` so the lines of many
 * nodes can be told apart once collected; request lines also carry `request_id` (the
 * X-Request-Id the client saw). The HTTP app and the services log through this one logger.
 */
export function createProcessLogger(opts: { level: string; nodeId: string; destination?: pino.DestinationStream }): pino.Logger {
  const destination = opts.destination ?? processLogDestination();
  const logger = pino({ level: opts.level, base: { node_id: opts.nodeId, pid: process.pid } }, destination);
  // pino.multistream wants each line's level and object beside the line itself: only pino can write those
  if ((destination as { [pino.symbols.needsMetadataGsym]?: boolean })[pino.symbols.needsMetadataGsym] !== true) {
    (logger as pino.Logger & { [PLAIN_LINES]?: true })[PLAIN_LINES] = true;
  }
  return logger;
}

/**
 * Set on a logger made by `createProcessLogger`, and so seen on each of its children (a pino child
 * is made with Object.create): its lines are pino's plain JSON lines, with no `formatters.log`,
 * mixin, redaction, message prefix, nested key, stream hook or metadata-hungry destination, so a
 * line of fixed fields may be put together outside pino exactly as pino would write it
 * (src/platform/http/request-log.ts).
 */
export const PLAIN_LINES: unique symbol = Symbol('vigil.plainLines');

/**
 * Where the process logs (standard output unless told otherwise). Lines are written at once, one
 * write(2) each (docs/decisions.md, "Read path, third pass": pino's asynchronous destination cost a thread hand-off per request
 * line), but **never block** (see docs/decisions.md, "Logging never blocks serving"): when standard
 * output is a pipe or a terminal, it is reopened non-blocking, so a reader that stops draining it
 * (a hung log shipper, a paused terminal) costs log lines, never requests. What the pipe does not
 * take is kept (up to `maxPendingBytes`) and retried every few milliseconds in order; beyond that,
 * lines are dropped and counted (`droppedLogLines`, `vigil_log_lines_dropped_total`). A regular
 * file (standard output redirected to one, or a path, opened for appending) is written by the same
 * line writer, one write(2) per line: a file has no reader to wait for, so a line is never held,
 * and a failed write (a full disk) drops the line and counts it. Before, a file went through
 * sonic-boom, whose bookkeeping per line cost about a quarter of the line (docs/decisions.md,
 * "Request path: a log file written without sonic-boom"). A socket on standard output or error is
 * made non-blocking the way Node does for process.stdout on a socket; any other descriptor is
 * written synchronously by sonic-boom.
 */
export function processLogDestination(dest: number | string = 1, opts: { maxPendingBytes?: number } = {}): pino.DestinationStream {
  const maxPendingBytes = opts.maxPendingBytes ?? 1024 * 1024;
  if (typeof dest === 'string') return new NonBlockingLineWriter(openSync(dest, 'a'), maxPendingBytes);
  const fd = reopenNonBlocking(dest) ?? (isRegularFile(dest) ? dest : null);
  if (fd === null) return pino.destination({ dest, sync: true });
  return new NonBlockingLineWriter(fd, maxPendingBytes);
}

function isRegularFile(fd: number): boolean {
  try {
    return fstatSync(fd).isFile();
  } catch {
    return false;
  }
}

let dropped = 0;

/** Log lines dropped since the process started because their reader did not take them. */
export function droppedLogLines(): number {
  return dropped;
}

/**
 * A descriptor of the same pipe or terminal as `fd` with O_NONBLOCK of its own: opening
 * /proc/self/fd/N makes a new open file description, so the flag does not reach the shared one
 * (a shell whose terminal turned non-blocking would fail its reads after we exit). null when `fd`
 * is a regular file, or a socket other than standard output or error, or cannot be reopened (no /proc).
 */
function reopenNonBlocking(fd: number): number | null {
  try {
    const st = fstatSync(fd);
    if (st.isSocket() && (fd === 1 || fd === 2)) {
      // a socket (a parent's socketpair, a journal stream) cannot be reopened; Node itself makes it
      // non-blocking when it opens process.stdout or process.stderr on it, so do just that
      void (fd === 1 ? process.stdout : process.stderr).fd;
      return fd;
    }
    if (!st.isFIFO() && !st.isCharacterDevice()) return null;
    return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
}

const RETRY_MS = 10;

class NonBlockingLineWriter {
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly fd: number,
    private readonly maxPendingBytes: number,
  ) {
    // what is still held at exit gets one last non-blocking try
    process.once('exit', () => this.flush());
  }

  write(line: string): boolean {
    if (this.pendingBytes > 0) {
      this.hold(Buffer.from(line));
      return true;
    }
    let written: number;
    try {
      written = writeSync(this.fd, line);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') this.hold(Buffer.from(line));
      else dropped++; // EPIPE (the reader is gone) and the like: the line cannot go anywhere
      return true;
    }
    // a pipe may take part of a line; the rest is held (lines are ASCII JSON almost always)
    if (written !== line.length) {
      const bytes = Buffer.from(line);
      // the rest of a started line is always kept, or the next line would be glued to half of it
      if (written < bytes.length) this.hold(bytes.subarray(written), true);
    }
    return true;
  }

  flushSync(): void {
    this.flush();
  }

  private hold(bytes: Buffer, force = false): void {
    if (!force && this.pendingBytes + bytes.length > this.maxPendingBytes) {
      dropped++;
      return;
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
      if (this.pendingBytes > 0) this.schedule();
    }, RETRY_MS);
    this.timer.unref();
  }

  private flush(): void {
    while (this.pending.length > 0) {
      const head = this.pending[0];
      let written: number;
      try {
        written = writeSync(this.fd, head);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return;
        // the reader is gone: nothing held can be written any more
        dropped += this.pending.length;
        this.pending.length = 0;
        this.pendingBytes = 0;
        return;
      }
      this.pendingBytes -= written;
      if (written < head.length) {
        this.pending[0] = head.subarray(written);
        return;
      }
      this.pending.shift();
    }
  }
}
