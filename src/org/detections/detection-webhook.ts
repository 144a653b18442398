import type { DetectionRecord, DetectionType } from '../../platform/kinds/index.ts';
import { toIso } from '../../platform/time/index.ts';

/** The detection object of a webhook payload: exactly the fields of the documented payload (README "Security operations walkthrough"). */
export interface WebhookDetection {
  type: DetectionType;
  subtype: string | null;
  confidence: number;
  location: string;
  timestamp: string;
  /** only on a recognized person (subtype 'recognized'): the enrolled person */
  person_id?: string;
}

/** Payload of `detection.anomaly` before the envelope (`id`, `event`, `created_at`) is stamped on. */
export interface DetectionAnomalyPayload {
  stream_id: string;
  incident_id: string | null;
  detection: WebhookDetection;
  [key: string]: unknown;
}

/** Builds the detection.anomaly payload from a stored detection (pass to WebhookService.enqueueIn). */
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
      ...(rec.person_id ? { person_id: rec.person_id } : {}),
    },
  };
}
