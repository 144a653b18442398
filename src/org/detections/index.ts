import { defineApiModule } from '../../platform/http/api-module.ts';
import type { SnapshotService } from './snapshot.service.ts';
import { snapshotRoutes } from './snapshot.routes.ts';

/** The detections module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const detectionsApi = defineApiModule({
  name: 'detections',
  tags: [],
  schemas: [],
  routes: ({ snapshots }: { snapshots: SnapshotService }) => snapshotRoutes(snapshots),
});
