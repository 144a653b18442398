import type { DetectionRecord } from '../../org/detections/detection.ts';
import { toIso } from '../time/time.ts';

/**
 * The catalogue of webhook event kinds. The spec names only `detection.anomaly` (spec "Events" 2);
 * the rest are ours (issue 3 §2, DESIGN.md "Webhooks"). A subscription names kinds from its own
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

export type OrganizationEventKind = (typeof ORGANIZATION_EVENT_KINDS)[number];
export type HouseholdEventKind = (typeof HOUSEHOLD_EVENT_KINDS)[number];
export type EventKind = OrganizationEventKind | HouseholdEventKind;
export const EVENT_KINDS: readonly EventKind[] = [...ORGANIZATION_EVENT_KINDS, ...HOUSEHOLD_EVENT_KINDS];

export function eventKindsOf(tenantKind: 'organization' | 'household'): readonly EventKind[] {
  return tenantKind === 'organization' ? ORGANIZATION_EVENT_KINDS : HOUSEHOLD_EVENT_KINDS;
}

export function isEventKind(kind: string): kind is EventKind {
  return (EVENT_KINDS as readonly string[]).includes(kind);
}

/** The detection object of a webhook payload: exactly the fields the spec lists (spec "Resources", Webhook payload). */
export interface WebhookDetection {
  type: string;
  subtype: string | null;
  confidence: number;
  location: string;
  timestamp: string;
}

/** Payload of `detection.anomaly` before the envelope (`id`, `event`, `created_at`) is stamped on. */
export interface DetectionAnomalyPayload {
  stream_id: string;
  incident_id: string | null;
  detection: WebhookDetection;
  [key: string]: unknown;
}

/** Builds the spec's detection.anomaly payload from a stored detection (pass to WebhookService.enqueueIn). */
export function buildDetectionAnomalyPayload(rec: DetectionRecord, incidentId: string | null): DetectionAnomalyPayload {
  return {
    stream_id: rec.stream_id,
    incident_id: incidentId,
    detection: {
      type: rec.type,
      subtype: rec.subtype ?? null,
      confidence: rec.confidence,
      location: rec.location,
      timestamp: toIso(rec.at),
    },
  };
}
