import { defineApiModule } from '../../platform/http/api-module.ts';
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
