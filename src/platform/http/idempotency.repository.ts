import type { DbExecutor, IdempotencyTable } from '../db/index.ts';

export type IdempotencyRow = IdempotencyTable;

/** Stored Idempotency-Key requests and their responses (docs/design.md "Idempotency"); queries only. */
export const idempotencyRepository = {
  find(db: DbExecutor, keyId: string, key: string) {
    return db.selectFrom('idempotency_keys').selectAll().where('key_id', '=', keyId).where('idempotency_key', '=', key).executeTakeFirst();
  },
  /** Claims the key for a request in progress; rejects when another request holds it (primary key). */
  async insertInProgress(db: DbExecutor, row: IdempotencyRow): Promise<void> {
    await db.insertInto('idempotency_keys').values(row).execute();
  },
  async saveResponse(db: DbExecutor, keyId: string, key: string, status: number, response: string): Promise<void> {
    await db.updateTable('idempotency_keys').set({ status, response }).where('key_id', '=', keyId).where('idempotency_key', '=', key).execute();
  },
  async delete(db: DbExecutor, keyId: string, key: string): Promise<void> {
    await db.deleteFrom('idempotency_keys').where('key_id', '=', keyId).where('idempotency_key', '=', key).execute();
  },
  async deleteCreatedBefore(db: DbExecutor, before: string): Promise<void> {
    await db.deleteFrom('idempotency_keys').where('created_at', '<', before).execute();
  },
};
