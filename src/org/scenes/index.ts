// The module's public face: what other modules may import (docs/architecture.md).
export { LOITERING_DWELL_S, SceneEngine, isAnomalous, type SceneState } from './scene-engine.ts';
export { sceneRepository } from './scene.repository.ts';
export { type DetectionView } from './scene.schemas.ts';
export { SceneService, toDetectionView } from './scene.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import type { SceneService } from './scene.service.ts';
import { DetectionSchema, SceneSchema } from './scene.schemas.ts';
import { sceneRoutes } from './scene.routes.ts';

/** The scenes module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const scenesApi = defineApiModule({
  name: 'scenes',
  tags: [{ name: 'Scenes', description: 'Interpreted state per location and natural-language queries (Surface B)' }],
  schemas: [SceneSchema, DetectionSchema],
  routes: ({ scenes }: { scenes: SceneService }) => sceneRoutes(scenes),
});
