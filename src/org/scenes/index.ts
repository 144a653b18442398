// The module's public face: what other modules may import (docs/architecture.md).

import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { SceneEngine as SceneEngineT } from './scene-engine.ts';
import { SceneService as SceneServiceT, type ScenePeople as ScenePeopleT, type SceneService } from './scene.service.ts';
export { LOITERING_DWELL_S, SceneEngine, isAnomalous, type SceneState } from './scene-engine.ts';
export { listScenesOfTenant, updateScene, shareSceneAnomalies } from './scene-queries.ts';
export { SOURCE_SILENCE_MS, freshnessFields, mergeFreshness, sceneFreshness, staleSentence, type SceneFreshness } from './scene-freshness.ts';
export { type DetectionView } from './scene.schemas.ts';
export { SceneService, toDetectionView, type ScenePeople } from './scene.service.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { DetectionSchema, SceneSchema } from './scene.schemas.ts';
import { sceneRoutes } from './scene.routes.ts';

/** The scenes module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const scenesApi = defineApiModule({
  name: 'scenes',
  tags: [{ name: 'Scenes', description: 'Interpreted state per location and natural-language queries (Surface B)' }],
  schemas: [SceneSchema, DetectionSchema],
  routes: ({ scenes }: { scenes: SceneService }) => sceneRoutes(scenes),
});

export const SCENE_ENGINE = token<SceneEngineT>('engine');
/** port: the tenant's known people and recognition opt-in, for questions about people (org/people provides it) */
export const SCENE_PEOPLE = token<ScenePeopleT>('scenePeople');
export const SCENES = token<SceneServiceT>('scenes');

export const sceneServices = defineServiceModule({
  name: 'scenes',
  provide(c) {
    c.provide(SCENE_ENGINE, () => new SceneEngineT());
    c.provide(
      SCENES,
      (c) =>
        new SceneServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          engine: c.get(SCENE_ENGINE),
          defaultCapacity: c.get(CONFIG).defaultSceneCapacity,
          people: c.get(SCENE_PEOPLE),
          sharedState: c.get(CONFIG).cluster,
        }),
    );
  },
  install: (c) => c.get(SCENES).loadAll(),
});
