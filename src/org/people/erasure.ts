import type { DbExecutor } from '../../platform/db/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import { personRepository } from './person.repository.ts';

/**
 * The value with the person taken out (docs/decisions.md, "Erasure removes the person from every
 * read"): every object naming them by `person_id` loses it, and a detection recognized as them
 * becomes a person nobody named (`subtype` 'recognized' dropped); `person_ids` lists lose them.
 * Returns the same value when nothing named them.
 */
export function scrubPerson(value: unknown, personId: string): unknown {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const s = scrubPerson(v, personId);
      if (s !== v) changed = true;
      return s;
    });
    return changed ? out : value;
  }
  if (!value || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  const set = (k: string, v: unknown) => {
    out ??= { ...obj };
    if (v === undefined) delete out[k];
    else out[k] = v;
  };
  if (obj.person_id === personId) {
    set('person_id', undefined);
    if (obj.subtype === 'recognized') set('subtype', undefined);
  }
  if (Array.isArray(obj.person_ids) && obj.person_ids.includes(personId))
    set(
      'person_ids',
      obj.person_ids.filter((p) => p !== personId),
    );
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'person_id' || k === 'person_ids') continue;
    if (v && typeof v === 'object') {
      const s = scrubPerson(v, personId);
      if (s !== v) set(k, s);
    } else if (v === personId) {
      set(k, null);
    }
  }
  return out ?? value;
}

/** JSON text with the person taken out, or null when it did not name them. */
function scrubText(text: string | null, personId: string): string | null {
  if (text === null || !text.includes(personId)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const scrubbed = scrubPerson(parsed, personId);
  return scrubbed === parsed ? null : JSON.stringify(scrubbed);
}

export interface ErasureCounts {
  detections: number;
  snapshots_deleted: number;
  alerts: number;
  incident_detections: number;
  household_events: number;
  webhook_events: number;
  audit_entries: number;
}

/**
 * Takes the person out of everything that reads them back, in the deleting transaction: their
 * detections' frames are dropped and the detections no longer name them (so scene answers,
 * sightings and histories do not), the detection copies kept in alerts, incidents and household
 * events and webhook events not yet delivered are scrubbed, and the audit entries about or naming
 * them lose their content (the chain still verifies through data_hash). What cannot be removed is
 * listed in docs/decisions.md, "Erasure removes the person from every read".
 */
export async function erasePersonIn(trx: DbExecutor, audit: AuditService, tenantId: string, personId: string): Promise<ErasureCounts> {
  const counts: ErasureCounts = {
    detections: 0,
    snapshots_deleted: 0,
    alerts: 0,
    incident_detections: 0,
    household_events: 0,
    webhook_events: 0,
    audit_entries: 0,
  };
  // frames first: they are found through the detections that still name the person
  counts.snapshots_deleted = await personRepository.deleteSnapshotsOf(trx, tenantId, personId);
  counts.detections = await personRepository.forgetInDetections(trx, tenantId, personId);
  for (const a of await personRepository.alertsMentioning(trx, tenantId, personId)) {
    const d = scrubText(a.detection, personId);
    if (d !== null) (await personRepository.setAlertDetection(trx, a.id, d), counts.alerts++);
  }
  for (const r of await personRepository.incidentDetectionsMentioning(trx, tenantId, personId)) {
    const d = scrubText(r.detection, personId);
    if (d !== null) (await personRepository.setIncidentDetection(trx, r.incident_id, r.detection_id, d), counts.incident_detections++);
  }
  for (const e of await personRepository.householdEventsMentioning(trx, tenantId, personId)) {
    const d = scrubText(e.detection, personId);
    const data = scrubText(e.data, personId);
    if (d !== null || data !== null) (await personRepository.setHouseholdEvent(trx, e.id, d ?? e.detection, data ?? e.data), counts.household_events++);
  }
  for (const e of await personRepository.undeliveredEventsMentioning(trx, tenantId, personId)) {
    const body = scrubText(e.body, personId);
    if (body !== null) (await personRepository.setEventBody(trx, e.id, body), counts.webhook_events++);
  }
  counts.audit_entries = await audit.eraseIn(trx, tenantId, personId);
  return counts;
}
