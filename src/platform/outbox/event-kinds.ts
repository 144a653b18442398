/**
 * The catalogue of webhook event kinds (docs/design.md "Webhooks"); `detection.anomaly` is the
 * organization's anomaly event, the rest follow its naming. A subscription names kinds from its own
 * surface: organization endpoints take organization kinds, household endpoints household kinds.
 */
export const ORGANIZATION_EVENT_KINDS = [
  'detection.anomaly',
  'alert.fired',
  'incident.created',
  'incident.updated',
  'protocol.triggered',
  'protocol.state_changed',
  'stream.status_changed',
  'recording.storage_low', // the recordings directory is low on space or unwritable (docs/decisions.md, "Recordings")
] as const;

export const HOUSEHOLD_EVENT_KINDS = [
  'watch.observation',
  'watch.alert',
  'watch.created',
  'watch.stood_down',
  'boundary.set',
  'boundary.cleared',
  'sensor.muted',
  'sensor.unmuted',
] as const;

/**
 * Kinds of both surfaces that an endpoint receives only when it names them (not in the default
 * subscription): `audit.checkpoint`, each signed head checkpoint of the tenant's audit trail, for
 * subscribers to keep outside Vigil's database (docs/audit-threat-model.md).
 */
export const OPT_IN_EVENT_KINDS = ['audit.checkpoint'] as const;

export type OrganizationEventKind = (typeof ORGANIZATION_EVENT_KINDS)[number];
export type HouseholdEventKind = (typeof HOUSEHOLD_EVENT_KINDS)[number];
export type OptInEventKind = (typeof OPT_IN_EVENT_KINDS)[number];
export type EventKind = OrganizationEventKind | HouseholdEventKind | OptInEventKind;
export const EVENT_KINDS: readonly EventKind[] = [...ORGANIZATION_EVENT_KINDS, ...HOUSEHOLD_EVENT_KINDS, ...OPT_IN_EVENT_KINDS];

/** What an endpoint of this surface may subscribe to: its surface's kinds and the opt-in ones. */
export function subscribableKindsOf(tenantKind: 'organization' | 'household'): readonly EventKind[] {
  return [...eventKindsOf(tenantKind), ...OPT_IN_EVENT_KINDS];
}

export function eventKindsOf(tenantKind: 'organization' | 'household'): readonly EventKind[] {
  return tenantKind === 'organization' ? ORGANIZATION_EVENT_KINDS : HOUSEHOLD_EVENT_KINDS;
}

export function isEventKind(kind: string): kind is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(kind);
}
