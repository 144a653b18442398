import { VigilError } from '../lib/index.ts';
import type { Capability } from './capabilities.ts';
import type { KeyMode } from './key-format.ts';
import type { TenantKind } from './tenant.repository.ts';

/** A household key's role; organization keys are governed by capabilities instead. */
export type KeyRole = 'owner' | 'member';

/** The authenticated principal of a request. */
export interface Principal {
  keyId: string;
  tenantId: string;
  tenantKind: TenantKind;
  mode: KeyMode;
  capabilities: ReadonlySet<Capability>;
  /** null = every location */
  locations: readonly string[] | null;
  rateLimitPerMinute: number | null;
  /** household keys: owner or member; organization keys are always 'owner' (capabilities decide) */
  role: KeyRole;
}

/** What the HTTP layer needs of key management: a bearer secret in, its principal out (or a VigilError). */
export interface KeyAuthenticator {
  authenticate(presented: string | undefined): Promise<Principal>;
  /**
   * The principal of a key that verified moments ago, answered without awaiting anything; undefined
   * when `authenticate` has to decide (not cached, or not key-shaped: it gives the error).
   */
  cachedPrincipal?(presented: string): Principal | undefined;
}

export function assertOwner(principal: Principal, what: string): void {
  if (principal.tenantKind === 'household' && principal.role !== 'owner') {
    throw new VigilError('owner_role_required', `Only an owner of the household can ${what}; this is a member key.`, { extra: { role: principal.role } });
  }
}
