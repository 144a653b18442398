/**
 * Capabilities of organization keys: each key has a defined capability set (docs/design.md
 * "Auth and keys"). Household keys carry no capability list: a household key reaches
 * everything of its household and nothing else.
 */
export const CAPABILITIES = [
  'streams:read',
  'streams:write',
  'scenes:read',
  'scenes:query',
  'incidents:read',
  'incidents:write',
  'protocols:trigger',
  'protocols:manage',
  'alerts:read',
  'alerts:manage',
  'responders:manage',
  'webhooks:manage',
  'audit:read',
  'operator',
  // account settings over HTTP: create, list, revoke and rotate keys no wider than this one
  'keys:manage',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

export function isCapability(s: string): s is Capability {
  return (CAPABILITIES as readonly string[]).includes(s);
}
