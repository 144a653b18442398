import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { unlinkSync } from 'node:fs';
import { InProcessCacheInvalidation, type CacheInvalidation } from './cache-invalidation.ts';

/** The longest Unix socket path Linux takes (sun_path is 108 bytes with its terminating NUL). */
const MAX_SOCKET_PATH_BYTES = 107;
/** How long a publisher waits for the serving process to say it handled a change. */
export const ANNOUNCE_TIMEOUT_MS = 5_000;
/** The longest announcement line read (a topic and a key are short). */
const MAX_LINE_BYTES = 4096;

/**
 * Cache invalidation between the processes on one SQLite file (a single node without Redis: the
 * server and the admin CLI). The serving process listens on a Unix socket beside the database file
 * (`listen`, from the context's start); every other process that publishes a change tells it there
 * and waits for its answer, which comes once the server's own subscribers have handled the change.
 * So a key revoked by the CLI is forgotten by the server before the CLI's revoke returns, and the
 * server need not ask SQLite on every request whether another process committed
 * (docs/decisions.md, "Request path: the read's fixed costs").
 *
 * While it owns the socket (`othersAnnounce`) the server trusts those announcements; when it could
 * not listen (the path is too long, or another live server on the same file holds it) it does not,
 * and its caches keep asking SQLite (`externalCommitProbe`). A publisher that finds nobody
 * listening (no socket file, or one left by a process that died) has nobody to tell: a server
 * without the socket asks SQLite itself. Any other failure to tell the owner (no permission, no
 * answer in time) rejects the publish, so the change is reported as not yet seen by the server.
 */
export class SocketCacheInvalidation implements CacheInvalidation {
  private readonly local = new InProcessCacheInvalidation();
  private server: Server | null = null;
  private owns = false;

  constructor(private readonly path: string) {}

  /** true while this process owns the socket, so every other process on the file announces its changes here. */
  get othersAnnounce(): boolean {
    return this.owns;
  }

  async publish(topic: string, key: string): Promise<void> {
    await this.local.publish(topic, key);
    if (!this.owns) await this.tellOwner(topic, key);
  }

  subscribe(topic: string, onInvalidate: (key: string) => void | Promise<void>): () => void {
    return this.local.subscribe(topic, onInvalidate);
  }

  /**
   * Listens for other processes' announcements. Does nothing when the path is too long or a live
   * process already listens; a socket file left by a process that died is replaced.
   */
  async listen(): Promise<void> {
    if (this.server || Buffer.byteLength(this.path) > MAX_SOCKET_PATH_BYTES) return;
    const server = createServer((socket) => this.serve(socket));
    let bound = await tryListen(server, this.path);
    if (!bound && !(await someoneListens(this.path))) {
      unlinkQuietly(this.path);
      bound = await tryListen(server, this.path);
    }
    if (!bound) return;
    // a failed accept (out of descriptors) must not end the process; the publisher then reports it
    server.on('error', () => undefined);
    server.unref();
    this.server = server;
    this.owns = true;
  }

  close(): void {
    const server = this.server;
    if (!server) return;
    this.owns = false;
    this.server = null;
    // stops listening at once and removes the socket file; an announcement being answered finishes
    server.close();
  }

  private serve(socket: Socket): void {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      if (buffered.length > MAX_LINE_BYTES) return socket.destroy();
      const nl = buffered.indexOf('\n');
      if (nl < 0) return;
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      void this.handle(line).then((answer) => socket.end(answer));
    });
  }

  private async handle(line: string): Promise<string> {
    try {
      const { topic, key } = JSON.parse(line) as { topic: unknown; key: unknown };
      if (typeof topic !== 'string' || typeof key !== 'string') return 'error: not an announcement\n';
      await this.local.publish(topic, key);
      return 'ok\n';
    } catch (err) {
      return `error: ${String((err as Error).message ?? err).replace(/\n/g, ' ')}\n`;
    }
  }

  private tellOwner(topic: string, key: string): Promise<void> {
    // nobody can listen on a path this long, so nobody is skipping its own check
    if (Buffer.byteLength(this.path) > MAX_SOCKET_PATH_BYTES) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const socket = createConnection(this.path);
      let answer = '';
      let settled = false;
      const done = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.destroy();
        if (err) reject(err);
        else resolve();
      };
      const fail = (why: string) => done(new Error(`the change (${topic} ${key}) is committed, but the serving process on this database was not told: ${why}`));
      const timer = setTimeout(() => fail(`no answer within ${ANNOUNCE_TIMEOUT_MS} ms on ${this.path}`), ANNOUNCE_TIMEOUT_MS);
      socket.setEncoding('utf8');
      socket.on('connect', () => socket.write(`${JSON.stringify({ topic, key })}\n`));
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', (err: NodeJS.ErrnoException) => {
        // no socket file, or one whose process died: nobody listens, so no server skips its check
        if (err.code === 'ENOENT' || err.code === 'ECONNREFUSED') done();
        else fail(`${err.code ?? err.message} on ${this.path}`);
      });
      socket.on('close', () => {
        if (answer === 'ok\n') done();
        else fail(answer.trim() || `the connection closed without an answer on ${this.path}`);
      });
    });
  }
}

function tryListen(server: Server, path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const onError = () => resolve(false);
    server.once('error', onError);
    server.listen(path, () => {
      server.off('error', onError);
      resolve(true);
    });
  });
}

/** Whether a live process accepts connections on `path` (a file left by a process that died refuses them). */
function someoneListens(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(path);
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code !== 'ECONNREFUSED' && err.code !== 'ENOENT'));
  });
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
