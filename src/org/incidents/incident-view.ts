import { toIso } from '../../platform/time/index.ts';
import type { IncidentNoteRow, IncidentRow } from './incident.repository.ts';
import type { IncidentView, NoteView } from './incident.schemas.ts';

export function toIncidentView(r: IncidentRow): IncidentView {
  return {
    id: r.id,
    object: 'incident',
    stream_id: r.stream_id,
    scene_id: r.scene_id,
    location: r.location,
    title: r.title,
    severity: r.severity,
    status: r.status,
    source: r.source,
    last_activity_at: toIso(Number(r.last_activity_at)),
    acknowledged_at: r.acknowledged_at,
    closed_at: r.closed_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

export function toNoteView(r: IncidentNoteRow): NoteView {
  return {
    id: r.id,
    object: 'incident_note',
    incident_id: r.incident_id,
    body: r.body,
    author: { key_id: r.author_key_id, operator: r.author_operator },
    created_at: r.created_at,
  };
}
