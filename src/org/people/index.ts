// The module's public face: what other modules may import (docs/architecture.md).
export { findPerson, personNamesOfTenant } from './person-queries.ts';
export { PeopleService } from './person.service.ts';
export { LiveRecognition, LIVE_EVERY_N_FRAMES } from './live-recognition.ts';

import { defineApiModule } from '../../platform/http/index.ts';
import { defineServiceModule, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT } from '../../platform/audit/index.ts';
import { createFaceEngine, loadFaceModel, type FaceEngine, type FaceModel } from '../../ingest/faces/index.ts';
import { CONFIG, type FaceEmbedderConfig } from '../../platform/config/index.ts';
import { FRAME_FACES } from '../streams/index.ts';
import { SCENE_PEOPLE } from '../scenes/index.ts';
import { personRepository } from './person.repository.ts';
import { COORDINATION } from '../../platform/coordination/index.ts';
import { LIVE_FACES } from '../sources/index.ts';
import { LiveRecognition } from './live-recognition.ts';
import { PeopleService } from './person.service.ts';
import { PersonSchema } from './person.schemas.ts';
import { personRoutes } from './person.routes.ts';

/** The face engine, started on first use and closed with the process (context.close). */
export interface LazyFaceEngine {
  /**
   * What describes faces (VIGIL_FACE_*), checked once: the process start awaits it, so a face
   * embedder that cannot serve refuses the start with a message naming the setting.
   */
  model(): Promise<FaceModel>;
  get(): Promise<FaceEngine>;
  close(): Promise<void>;
}

const SHIPPED_FACES: FaceEmbedderConfig = { file: null, input: null, threshold: null };

export function lazyFaceEngine(
  config: FaceEmbedderConfig = SHIPPED_FACES,
  make: (model: FaceModel) => Promise<FaceEngine> = (model) => createFaceEngine({ model }),
): LazyFaceEngine {
  let checked: Promise<FaceModel> | null = null;
  let started: Promise<FaceEngine> | null = null;
  const model = () => (checked ??= loadFaceModel(config));
  return {
    model,
    get() {
      started ??= model()
        .then(make)
        .catch((err) => {
          started = null; // a failed start is retried by the next request
          throw err;
        });
      return started;
    },
    async close() {
      const s = started;
      started = null;
      if (s) await (await s.catch(() => null))?.close();
    },
  };
}

export const PEOPLE = token<PeopleService>('people');
export const FACE_ENGINE = token<LazyFaceEngine>('faceEngine');
export const LIVE_RECOGNITION = token<LiveRecognition>('liveRecognition');
/** port: the tenant's face recognition opt-in (org/operations.ts hands in the automation settings) */
export const FACE_RECOGNITION_ENABLED = token<(tenantId: string) => boolean>('faceRecognitionEnabled');

export const peopleServices = defineServiceModule({
  name: 'people',
  provide: (c) => {
    c.provide(FACE_ENGINE, (c) => lazyFaceEngine(c.get(CONFIG).faceEmbedder ?? SHIPPED_FACES));
    c.provide(LIVE_RECOGNITION, (c) => {
      const engine = c.get(FACE_ENGINE);
      return new LiveRecognition({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        engine: () => engine.get(),
        faceModel: () => engine.model(),
        recognitionEnabled: c.get(FACE_RECOGNITION_ENABLED),
        invalidation: c.get(COORDINATION).invalidation,
      });
    });
    c.provide(LIVE_FACES, (c) => c.get(LIVE_RECOGNITION));
    c.provide(PEOPLE, (c) => {
      const engine = c.get(FACE_ENGINE);
      return new PeopleService({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        audit: c.get(AUDIT),
        engine: () => engine.get(),
        recognitionEnabled: c.get(FACE_RECOGNITION_ENABLED),
        live: c.get(LIVE_RECOGNITION),
      });
    });
    c.provide(FRAME_FACES, (c) => c.get(PEOPLE));
    c.provide(SCENE_PEOPLE, (c) => {
      const database = c.get(DATABASE);
      const enabled = c.get(FACE_RECOGNITION_ENABLED);
      return { list: (tenantId: string) => personRepository.namesForTenant(database.db, tenantId), recognitionEnabled: enabled };
    });
  },
});

/** The people module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const peopleApi = defineApiModule({
  name: 'people',
  tags: [{ name: 'People', description: 'Known people and their enrolled faces, for face recognition (both surfaces)' }],
  schemas: [PersonSchema],
  routes: ({ people }: { people: PeopleService }) => personRoutes(people),
});
