import type BetterSqlite3 from 'better-sqlite3';
import { sql, type RawBuilder } from 'kysely';
import {
  holdsTenantLocks,
  pgJsonText,
  tenantLockStatements,
  type CompanionWrite,
  type DatabaseHandle,
  type DbExecutor,
  type Dialect,
  type AuditTable,
} from '../db/index.ts';
import { chainEntries, GENESIS_HASH, type AuditFields, type ChainedAuditRow } from './audit-chain.ts';

export type AuditRow = Omit<AuditTable, 'seq'> & { seq: number };

const COLUMNS = [
  'id',
  'tenant_id',
  'at',
  'actor_key_id',
  'actor_operator',
  'action',
  'resource_type',
  'resource_id',
  'request_id',
  'data',
  'prev_hash',
  'hash',
  'format',
  'data_hash',
  'salt',
  'location',
  'stream_id',
] as const;
const sqliteStatements = new WeakMap<BetterSqlite3.Database, { head: BetterSqlite3.Statement; insert: BetterSqlite3.Statement }>();

function statementsFor(raw: BetterSqlite3.Database) {
  let s = sqliteStatements.get(raw);
  if (!s) {
    s = {
      head: raw.prepare('SELECT hash FROM audit_log WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1').pluck(),
      insert: raw.prepare(`INSERT INTO audit_log (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`),
    };
    sqliteStatements.set(raw, s);
  }
  return s;
}

/** the PostgreSQL column types of COLUMNS, for the json_to_recordset() insert */
const PG_TYPES: Record<(typeof COLUMNS)[number], string> = {
  id: 'text',
  tenant_id: 'text',
  at: 'text',
  actor_key_id: 'text',
  actor_operator: 'text',
  action: 'text',
  resource_type: 'text',
  resource_id: 'text',
  request_id: 'text',
  data: 'text',
  prev_hash: 'text',
  hash: 'text',
  format: 'integer',
  data_hash: 'text',
  salt: 'text',
  location: 'text',
  stream_id: 'text',
};
const COLUMN_LIST = sql.raw(COLUMNS.join(', '));
/**
 * The rows go as one JSON text (json_to_recordset), not one array literal per column: see
 * detectionRepository.insertStatementPg. Each column is named in it by one letter, a for the first
 * of COLUMNS on (pgRow), so the text sent per row carries no column names (docs/decisions.md,
 * "Pipeline CPU, third pass").
 */
const PG_KEYS = COLUMNS.map((_, i) => String.fromCharCode(97 + i));
const PG_RECORD = sql.raw(COLUMNS.map((c, i) => `${PG_KEYS[i]} ${PG_TYPES[c]}`).join(', '));
const PG_SELECT = sql.raw(PG_KEYS.join(', '));

/**
 * A chained row as the batch insert's JSON carries it: the keys of PG_KEYS in the order of COLUMNS, a
 * NULL column left out (json_to_recordset reads a missing key as NULL). `prev` is the hash of the
 * row before it of the same tenant in this batch, if any: chainEntries made that its prev_hash, so
 * the statement takes it from there (PG_PREV) and the row leaves it out.
 */
function pgRow(r: ChainedAuditRow, prev: string | undefined) {
  return {
    a: r.id,
    b: r.tenant_id,
    c: r.at,
    d: r.actor_key_id ?? undefined,
    e: r.actor_operator ?? undefined,
    f: r.action,
    g: r.resource_type,
    h: r.resource_id ?? undefined,
    i: r.request_id ?? undefined,
    j: r.data ?? undefined,
    k: r.prev_hash === prev ? undefined : r.prev_hash,
    l: r.hash,
    m: r.format,
    n: r.data_hash,
    o: r.salt,
    p: r.location ?? undefined,
    q: r.stream_id ?? undefined,
  };
}

/** The rows of one batch insert as its JSON text; each tenant's first row carries its prev_hash, the rest take it from the row before. */
function pgRowsText(rows: readonly ChainedAuditRow[]): string {
  const last = new Map<string, string>();
  const out = rows.map((r) => {
    const row = pgRow(r, last.get(r.tenant_id));
    last.set(r.tenant_id, r.hash);
    return row;
  });
  return pgJsonText(out);
}
/** the insert's select list: prev_hash (k) left out is the hash (l) of the tenant's (b) row before in the batch (ord) */
const PG_PREV = sql.raw(
  PG_KEYS.map((k, i) =>
    COLUMNS[i] === 'prev_hash'
      ? `coalesce(${k}, lag(${PG_KEYS[COLUMNS.indexOf('hash')]}) OVER (PARTITION BY ${PG_KEYS[COLUMNS.indexOf('tenant_id')]} ORDER BY ord))`
      : k,
  ).join(', '),
);

/**
 * PostgreSQL: the chain head each tenant had after this process's last append to it (any append on
 * PostgreSQL: the pipeline's, an incident's, an API request's). Only a guess: every insert that
 * uses it checks it against the table in the same statement (under the tenant's lock), so another
 * writer (another node, the CLI) or another database holding the same tenant id costs one re-read.
 * Bounded: past MAX_HEAD_GUESSES tenants it starts over.
 */
const pgHeads = new Map<string, string>();
const MAX_HEAD_GUESSES = 10_000;

function rememberHeads(rows: readonly ChainedAuditRow[]): void {
  if (pgHeads.size > MAX_HEAD_GUESSES) pgHeads.clear();
  // set before commit: a rollback leaves a wrong guess, which the next append's check catches
  for (const r of rows) pgHeads.set(r.tenant_id, r.hash);
}

/**
 * Queries only. A tenant's chain is appended to only while its head is locked: `withWriteLock`
 * (every writer), or `withTenantWriteLock` naming the tenant (the pipeline); on PostgreSQL
 * appendChained takes the tenant's lock itself too, so the head it reads cannot move under it.
 */
export const auditRepository = {
  async headHash(db: DbExecutor, tenantId: string): Promise<string> {
    const row = await db.selectFrom('audit_log').select('hash').where('tenant_id', '=', tenantId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    return row?.hash ?? GENESIS_HASH;
  },

  /** Each tenant's head hash (GENESIS_HASH for an empty chain), one statement for all of them. */
  async headHashes(db: DbExecutor, tenantIds: string[]): Promise<Map<string, string>> {
    const { rows } = await sql<{ tenant_id: string; hash: string | null }>`
      SELECT t.tenant_id, (SELECT a.hash FROM audit_log a WHERE a.tenant_id = t.tenant_id ORDER BY a.seq DESC LIMIT 1) AS hash
      FROM unnest(${tenantIds}::text[]) AS t(tenant_id)`.execute(db);
    return new Map(rows.map((r) => [r.tenant_id, r.hash ?? GENESIS_HASH]));
  },

  /** Chains and inserts entries in order. Caller holds the write lock. */
  async appendChained(db: DbExecutor, entries: AuditFields[], dialect: Dialect): Promise<void> {
    if (entries.length === 0) return;
    const tenants = [...new Set(entries.map((e) => e.tenant_id))];
    // inside the pipeline's commit the tenants' locks are held already: the guessed heads, checked
    // in the insert's own statement, make it one round trip instead of three
    if (dialect === 'postgres' && holdsTenantLocks(db, tenants)) return this.appendChainedPg(db, entries);
    // the head is read only under the tenant's own lock (reentrant: the pipeline already holds it);
    // a separate statement, so the head read's snapshot is taken after the lock is granted
    if (dialect === 'postgres') await sql.raw(tenantLockStatements(tenants)).execute(db);
    const heads = new Map<string, string>();
    for (const t of tenants) heads.set(t, await this.headHash(db, t));
    const rows: ChainedAuditRow[] = chainEntries(entries, (t) => heads.get(t)!);
    // chunk to stay under SQLite's bound-parameter limit
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('audit_log')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    if (dialect === 'postgres') rememberHeads(rows);
  },

  /**
   * The append with a companion write of the same commit (the pipeline's detection insert), inside
   * `database.withTenantWriteLock` (`trx` is its transaction). SQLite: both as prepared statements
   * on the raw connection, at once (a failure throws here); PostgreSQL: the companion rides in the
   * append's statement, one round trip, whose promise is returned so the caller can send other
   * reads beside it.
   */
  appendChainedWith(database: DatabaseHandle, trx: DbExecutor, entries: AuditFields[], companion: CompanionWrite): Promise<void> | undefined {
    if (database.sqlite) {
      companion.sqlite(database.sqlite);
      this.appendChainedSqlite(database.sqlite, entries);
      return undefined;
    }
    return this.appendChainedPg(trx, entries, companion.postgres());
  },

  /** The same append as prepared statements on the raw SQLite connection (detection hot path). Caller holds the write lock. */
  appendChainedSqlite(raw: BetterSqlite3.Database, entries: AuditFields[]): void {
    if (entries.length === 0) return;
    const st = statementsFor(raw);
    for (const r of chainEntries(entries, (t) => (st.head.get(t) as string | undefined) ?? GENESIS_HASH)) {
      // bound by position, in the order of COLUMNS
      st.insert.run(
        r.id,
        r.tenant_id,
        r.at,
        r.actor_key_id,
        r.actor_operator,
        r.action,
        r.resource_type,
        r.resource_id,
        r.request_id,
        r.data,
        r.prev_hash,
        r.hash,
        r.format,
        r.data_hash,
        r.salt,
        r.location,
        r.stream_id,
      );
    }
  },

  /**
   * The same append on PostgreSQL in one round trip: one INSERT … SELECT FROM json_to_recordset(the rows as JSON)
   * (a fixed statement whatever the batch size), chained from the heads this process last wrote and
   * inserting only if those are still the heads (checked in the same statement). When another writer
   * moved a head, the heads are read and the batch re-chained: two more round trips, rarely.
   * `companion`, a data-modifying statement of the same commit (the pipeline's detection insert),
   * runs inside the first statement as a CTE, whether or not the entries went in: one round trip
   * for both. Caller holds the tenants' locks (`withTenantWriteLock` or `withWriteLock`).
   */
  async appendChainedPg(trx: DbExecutor, entries: AuditFields[], companion?: RawBuilder<unknown>): Promise<void> {
    if (entries.length === 0) {
      if (companion) await companion.execute(trx);
      return;
    }
    const tenants = [...new Set(entries.map((e) => e.tenant_id))];
    const unknown = tenants.filter((t) => !pgHeads.has(t));
    if (unknown.length) for (const [t, h] of await this.headHashes(trx, unknown)) pgHeads.set(t, h);
    const guessed = tenants.map((t) => pgHeads.get(t) ?? GENESIS_HASH);
    let rows = chainEntries(entries, (t) => guessed[tenants.indexOf(t)]);
    if (!(await insertPg(trx, rows, tenants, guessed, companion))) {
      const fresh = await this.headHashes(trx, tenants);
      rows = chainEntries(entries, (t) => fresh.get(t)!);
      await insertPg(trx, rows, [], []);
    }
    rememberHeads(rows);
  },

  /**
   * Erasure (docs/decisions.md, "Erasure removes the person from every read"): clears data and salt
   * of the tenant's format-2 entries about `subject` (its resource id) or naming it in their data.
   * Their data_hash stays, so the chain verifies; format-1 entries cannot be cleared (their hash
   * covers the data). Returns how many entries were cleared. The migration 020 trigger allows
   * exactly this update.
   */
  async eraseContent(db: DbExecutor, tenantId: string, subject: string, dialect: Dialect): Promise<number> {
    const mentions = dialect === 'postgres' ? sql<boolean>`strpos(data, ${subject}) > 0` : sql<boolean>`instr(data, ${subject}) > 0`;
    const res = await db
      .updateTable('audit_log')
      .set({ data: null, salt: null })
      .where('tenant_id', '=', tenantId)
      .where('format', '=', 2)
      .where('data', 'is not', null)
      .where((eb) => eb.or([eb('resource_id', '=', subject), mentions]))
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  },
};

/**
 * Inserts chained rows in order (seq follows the array) if every `tenants[i]`'s head is still
 * `expected[i]`; returns whether it inserted. Empty `tenants`: no check.
 */
async function insertPg(trx: DbExecutor, rows: ChainedAuditRow[], tenants: string[], expected: string[], companion?: RawBuilder<unknown>): Promise<boolean> {
  const { rows: out } = await sql<{ ok: boolean }>`
    WITH ${companion ? sql`companion AS (${companion}), ` : sql``}expected AS (SELECT * FROM unnest(${tenants}::text[], ${expected}::text[]) AS e(tenant_id, hash)),
    ok AS (
      SELECT coalesce(bool_and(coalesce((SELECT a.hash FROM audit_log a WHERE a.tenant_id = e.tenant_id ORDER BY a.seq DESC LIMIT 1), ${GENESIS_HASH}) = e.hash), true) AS ok
      FROM expected e
    ),
    ins AS (
      INSERT INTO audit_log (${COLUMN_LIST})
      SELECT ${PG_PREV} FROM ROWS FROM (json_to_recordset(${pgRowsText(rows)}::json) AS (${PG_RECORD})) WITH ORDINALITY AS u(${PG_SELECT}, ord)
      WHERE (SELECT ok FROM ok)
      ORDER BY ord
      RETURNING 1
    )
    SELECT (SELECT ok FROM ok) AS ok, (SELECT count(*) FROM ins) AS n`.execute(trx);
  return out[0].ok;
}
