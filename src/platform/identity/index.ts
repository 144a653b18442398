// The module's public face: what other modules may import (docs/architecture.md).

export { AUTOMATION_ACTOR, SYSTEM_ACTOR, type Actor } from './actor.ts';
export { CAPABILITIES, isCapability, type Capability } from './capabilities.ts';
export { generateKey, hashKey, KEY_LENGTH, parseKey, previewKey, type KeyMode } from './key-format.ts';
export { assertEveryLocation, assertLocationAllowed } from './location-access.ts';
export { assertOwner, type KeyAuthenticator, type KeyRole, type Principal } from './principal.ts';
export { type TenantKind } from './tenant.repository.ts';
export { anyTenant, findTenant, findTenantByName, insertTenant, updateTenantSettings } from './tenants.ts';
export { VerifiedKeyCache } from './verified-key-cache.ts';
