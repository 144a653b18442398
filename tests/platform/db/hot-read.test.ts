import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { hotRead } from '../../../src/platform/db/index.ts';
import { tenantRepository } from '../../../src/platform/identity/tenant.repository.ts';
import { DIALECTS, createTestApp, type TestApp } from '../../helpers/harness.ts';

/**
 * hotRead: one Kysely query, compiled once, run as a prepared statement on SQLite
 * with each call's own values, and through Kysely on PostgreSQL or while a transaction is open.
 */
// the parameters are used in the opposite order to the one they are passed in, so a wrong binding shows
const tenantByKindAndName = hotRead((db, name: string, kind: 'organization' | 'household') =>
  db.selectFrom('tenants').select(['id', 'name', 'kind']).where('kind', '=', kind).where('name', '=', name),
);

for (const dialect of DIALECTS) {
  describe(`hotRead (${dialect})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ dialect });
      const at = new Date().toISOString();
      for (const [id, kind, name] of [
        ['org_a', 'organization', 'Acme'],
        ['hh_a', 'household', 'Acme'],
        ['org_b', 'organization', 'Beta'],
      ] as const) {
        await tenantRepository.insert(t.ctx.database.db, { id, kind, name, settings: '{}', created_at: at });
      }
    });
    after(() => t.close());

    test('each call binds its own values in the right places and returns what Kysely returns', async () => {
      const { database } = t.ctx;
      assert.deepEqual(await tenantByKindAndName(database, 'Acme', 'organization'), [{ id: 'org_a', name: 'Acme', kind: 'organization' }]);
      assert.deepEqual(await tenantByKindAndName(database, 'Acme', 'household'), [{ id: 'hh_a', name: 'Acme', kind: 'household' }]);
      assert.deepEqual(await tenantByKindAndName(database, 'Beta', 'household'), []);
      const viaKysely = await database.db
        .selectFrom('tenants')
        .select(['id', 'name', 'kind'])
        .where('kind', '=', 'organization')
        .where('name', '=', 'Beta')
        .execute();
      assert.deepEqual(await tenantByKindAndName(database, 'Beta', 'organization'), viaKysely);
    });

    test('a read while a write transaction is open never sees its uncommitted rows', async () => {
      const { database } = t.ctx;
      let during: Promise<unknown[]> | undefined;
      await assert.rejects(
        database.withWriteLock(async (trx) => {
          await tenantRepository.insert(trx, { id: 'org_ghost', kind: 'organization', name: 'Ghost', settings: '{}', created_at: new Date().toISOString() });
          // on SQLite this shares the transaction's connection: a raw read here would return the row
          during = tenantByKindAndName(database, 'Ghost', 'organization');
          await new Promise((r) => setTimeout(r, 20));
          throw new Error('roll back');
        }),
        /roll back/,
      );
      assert.deepEqual(await during, [], 'the rolled-back row was never visible');
      assert.deepEqual(await tenantByKindAndName(database, 'Ghost', 'organization'), []);
    });

    test('a committed write is seen by the next read (nothing is cached)', async () => {
      const { database } = t.ctx;
      assert.deepEqual(await tenantByKindAndName(database, 'Gamma', 'organization'), []);
      await database.withWriteLock((trx) =>
        tenantRepository.insert(trx, { id: 'org_g', kind: 'organization', name: 'Gamma', settings: '{}', created_at: new Date().toISOString() }),
      );
      assert.deepEqual(await tenantByKindAndName(database, 'Gamma', 'organization'), [{ id: 'org_g', name: 'Gamma', kind: 'organization' }]);
    });
  });
}
