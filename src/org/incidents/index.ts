import { defineApiModule } from '../../platform/http/api-module.ts';
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
