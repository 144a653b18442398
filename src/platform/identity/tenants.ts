import type { DbExecutor, TenantTable } from '../db/index.ts';
import { tenantRepository, type TenantKind } from './tenant.repository.ts';

/*
 * The tenants table belongs to this module: other modules read and write it through these
 * functions, never through its repository (docs/architecture.md). A write that belongs to the
 * caller's transaction is given that transaction.
 */

export function findTenant(db: DbExecutor, id: string) {
  return tenantRepository.findById(db, id);
}

export function findTenantByName(db: DbExecutor, kind: TenantKind, name: string) {
  return tenantRepository.findByName(db, kind, name);
}

/** Whether any tenant exists (the demo seeds an empty database only). */
export function anyTenant(db: DbExecutor): Promise<boolean> {
  return tenantRepository.any(db);
}

export function insertTenant(trx: DbExecutor, row: TenantTable): Promise<void> {
  return tenantRepository.insert(trx, row);
}

/** Replaces the tenant's settings text (its surface's settings, as JSON). */
export function updateTenantSettings(trx: DbExecutor, id: string, settings: string): Promise<void> {
  return tenantRepository.updateSettings(trx, id, settings);
}
