// The module's public face: what other modules may import (docs/architecture.md).
// the detection type itself lives in the kernel (platform/kinds), below ingest and org; re-exported here for org's modules
export { ANIMAL_KINDS, DetectionBoxSchema, DetectionTypeSchema, normalizeBox, type AnimalKind, type DetectionBox } from '../../platform/kinds/index.ts';

import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { SnapshotService as SnapshotServiceT, type SnapshotService } from './snapshot.service.ts';
export { buildDetectionAnomalyPayload } from './detection-webhook.ts';
export { boxOf, boxToColumn } from './detection-box.ts';
export {
  detectionInsert,
  deleteDetectionsOlderThan,
  latestReadings,
  detectionPageForStream,
  detectionsInRangeWithState,
  lastSighting,
  personSightings,
  readingsBefore,
  latestDetectionOfTypes,
  animalSubtypes,
} from './detection-queries.ts';
export { DETECTION_TYPES, type DetectionInput, type DetectionRecord, type DetectionType, type FrameObject } from '../../platform/kinds/index.ts';
export { SnapshotService } from './snapshot.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { snapshotRoutes } from './snapshot.routes.ts';

/** The detections module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const detectionsApi = defineApiModule({
  name: 'detections',
  tags: [],
  schemas: [],
  routes: ({ snapshots }: { snapshots: SnapshotService }) => snapshotRoutes(snapshots),
});

export const SNAPSHOTS = token<SnapshotServiceT>('snapshots');

export const detectionServices = defineServiceModule({
  name: 'detections',
  provide: (c) => c.provide(SNAPSHOTS, (c) => new SnapshotServiceT({ database: c.get(DATABASE) })),
});
