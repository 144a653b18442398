// The module's public face: what other modules may import (docs/architecture.md).
export { AnomalyWatcher } from './anomaly-watcher.ts';
export { toIncidentView } from './incident-view.ts';
export { type IncidentRow } from './incident.repository.ts';
export { findIncident, findIncidentById, findActiveIncidentAtScene } from './incident-queries.ts';
export { IncidentService, type IncidentProtocols } from './incident.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { IncidentService } from './incident.service.ts';
import { IncidentSchema, NoteSchema } from './incident.schemas.ts';
import { incidentRoutes } from './incident.routes.ts';

/** The incidents module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const incidentsApi = defineApiModule({
  name: 'incidents',
  tags: [{ name: 'Incidents', description: 'Grouped detections and events with a timeline (Surface B)' }],
  schemas: [IncidentSchema, NoteSchema],
  routes: ({ operations }: { operations: { incidents: IncidentService } }) => incidentRoutes(operations.incidents),
});
