import pg from 'pg';
import { type DatabaseHandle, type Db, type DbExecutor, carriesNotify, notifyIn } from '../db/index.ts';

/**
 * Wakes workers waiting for work (the webhook delivery worker when deliveries are enqueued). A
 * wake is a nudge, not a message: listeners look for work themselves, and keep polling in case a
 * wake is lost. PostgreSQL NOTIFY reaches every node; the in-process signal only this process.
 */
export interface WakeSignal {
  /**
   * Wakes every listener of `channel`. With `within`, the wake belongs to that transaction where
   * the implementation can tie it to one (PostgreSQL: NOTIFY is delivered at commit, never on
   * rollback); otherwise listeners run after the current turn of the event loop.
   */
  wake(channel: string, within?: DbExecutor): Promise<void>;
  /** Calls `onWake` for each wake of `channel` until the returned function is called. Rejects when listening is impossible. */
  listen(channel: string, onWake: () => void): Promise<() => Promise<void>>;
}

/** Channel names go into LISTEN as identifiers: keep them plain. */
function assertChannel(channel: string): void {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`invalid wake channel name: ${channel}`);
}

/** Wakes listeners in this process. On SQLite a wake sent inside a transaction runs after it: the listener's queries queue behind it on the one connection. */
export class InProcessWakeSignal implements WakeSignal {
  private readonly listeners = new Map<string, Set<() => void>>();

  async wake(channel: string): Promise<void> {
    assertChannel(channel);
    const fns = this.listeners.get(channel);
    if (!fns?.size) return;
    setImmediate(() => {
      for (const fn of [...fns]) fn();
    });
  }

  async listen(channel: string, onWake: () => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    // a fresh function per listen, so the same callback listening twice is two listeners
    const entry = () => onWake();
    let fns = this.listeners.get(channel);
    if (!fns) this.listeners.set(channel, (fns = new Set()));
    fns.add(entry);
    return async () => {
      fns.delete(entry);
    };
  }
}

/**
 * PostgreSQL LISTEN/NOTIFY: `wake` runs `pg_notify` (inside the caller's transaction when given, so
 * it is sent at commit); each `listen` holds its own connection outside the pool, because a pooled
 * connection would stop listening when it is handed back.
 */
export class PostgresWakeSignal implements WakeSignal {
  constructor(
    private readonly deps: {
      db: Db;
      connectionString: string;
      log?: { warn(obj: unknown, msg?: string): void };
    },
  ) {}

  async wake(channel: string, within?: DbExecutor): Promise<void> {
    assertChannel(channel);
    await notifyIn(within ?? this.deps.db, channel);
  }

  async listen(channel: string, onWake: () => void): Promise<() => Promise<void>> {
    assertChannel(channel);
    const client = new pg.Client({ connectionString: this.deps.connectionString });
    await client.connect();
    try {
      client.on('notification', (msg) => {
        if (msg.channel === channel) onWake();
      });
      // a lost connection is logged; listeners keep their own polling (a wake is only a nudge)
      client.on('error', (err) => this.deps.log?.warn({ err, channel }, 'LISTEN connection failed; polling only'));
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    let ended = false;
    return async () => {
      if (ended) return;
      ended = true;
      await client.end().catch(() => undefined);
    };
  }
}

/** NOTIFY where there is PostgreSQL to carry it, otherwise in process (SQLite serves one node). */
export function createWakeSignal(database: DatabaseHandle, databaseUrl: string | null, log?: { warn(obj: unknown, msg?: string): void }): WakeSignal {
  return carriesNotify(database) && databaseUrl ? new PostgresWakeSignal({ db: database.db, connectionString: databaseUrl, log }) : new InProcessWakeSignal();
}
