import type { DatabaseHandle } from '../../platform/db/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import type { CacheInvalidation } from '../../platform/coordination/index.ts';
import {
  descriptorFromBytes,
  faceSearchRegion,
  shippedFaceModel,
  TrackRecognizer,
  type EnrolledFace,
  type FaceEngine,
  type FaceModel,
  type FaceVerdict,
} from '../../ingest/faces/index.ts';
import type { LiveFaceRecognition } from '../sources/index.ts';
import type { TrackFaces, TrackIdentity } from '../../ingest/video/index.ts';
import type { StreamRef } from '../pipeline/index.ts';
import { personRepository } from './person.repository.ts';

/**
 * Cache topic of a tenant's enrolled faces; the key is `<tenant id>/<person id>` (a face enrolled,
 * a person erased), so every process drops the tenant's faces and forgets tracks recognized as
 * the person.
 */
export const PEOPLE_TOPIC = 'people';

/**
 * A descriptor per track at most once a second at the camera's 5 fps: a face turning towards the
 * camera is recognized within a second, an unrecognized person in view costs one descriptor a
 * second, and a recognized one none after the first (bench/faces.bench.ts, recognition cost).
 */
export const LIVE_EVERY_N_FRAMES = 5;

/** A tenant's enrolled faces are re-read at least this often even without an invalidation. */
const ENROLLED_TTL_MS = 60_000;

function toIdentity(v: FaceVerdict | undefined): TrackIdentity | undefined {
  if (!v) return undefined;
  return v.status === 'recognized' ? { subtype: 'recognized', personId: v.personId } : { subtype: 'unrecognized', personId: null };
}

/**
 * Live face recognition of tracked people, the LIVE_FACES port: one TrackRecognizer
 * per running stream, fed the tenant's enrolled faces (cached per tenant, dropped on enrolment
 * and erasure). While the tenant has recognition off, nothing is computed: no face is looked for,
 * no descriptor made, and tracks forget what they were.
 */
export class LiveRecognition implements LiveFaceRecognition {
  private readonly enrolled = new Map<string, { loadedAt: number; faces: Promise<EnrolledFace[]>; people?: readonly string[] }>();
  private readonly byTenant = new Map<string, Set<TrackRecognizer>>();

  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      engine: () => Promise<FaceEngine>;
      /** what describes faces (checked at start); default the shipped FaceRes */
      faceModel?: () => Promise<FaceModel>;
      recognitionEnabled: (tenantId: string) => boolean;
      invalidation?: CacheInvalidation;
      everyNFrames?: number;
    },
  ) {
    deps.invalidation?.subscribe(PEOPLE_TOPIC, (key) => {
      const [tenantId, personId] = key.split('/');
      this.forgetLocally(tenantId, personId);
    });
  }

  forStream(stream: StreamRef): TrackFaces {
    const tenantId = stream.tenant_id;
    const engine = { describeFaces: (image: Parameters<FaceEngine['describeFaces']>[0]) => this.deps.engine().then((e) => e.describeFaces(image)) };
    const recognizer = new TrackRecognizer(engine, { everyNFrames: this.deps.everyNFrames ?? LIVE_EVERY_N_FRAMES });
    let set = this.byTenant.get(tenantId);
    if (!set) this.byTenant.set(tenantId, (set = new Set()));
    set.add(recognizer);
    return {
      observe: async (trackId, frame, image, personBox) => {
        if (!this.deps.recognitionEnabled(tenantId)) {
          recognizer.forget(trackId);
          return undefined;
        }
        if (!recognizer.due(trackId, frame)) return toIdentity(recognizer.verdict(trackId));
        const enrolled = await this.enrolledFaces(tenantId);
        const { threshold } = await this.faceModel();
        return toIdentity(await recognizer.observe(trackId, frame, image, faceSearchRegion(personBox, image), enrolled, threshold));
      },
      forget: (trackId) => recognizer.forget(trackId),
      close: () => {
        this.byTenant.get(tenantId)?.delete(recognizer);
      },
    };
  }

  /** What describes faces: the configured embedder, or the shipped FaceRes. */
  faceModel(): Promise<FaceModel> {
    return this.deps.faceModel ? this.deps.faceModel() : Promise.resolve(shippedFaceModel());
  }

  /**
   * The tenant's enrolled faces (also for phone frames), cached: those described by the current
   * face model only (another model's descriptors are not comparable; re-enrol after a change).
   */
  enrolledFaces(tenantId: string): Promise<EnrolledFace[]> {
    const now = this.deps.clock.now();
    const cached = this.enrolled.get(tenantId);
    if (cached && now - cached.loadedAt < ENROLLED_TTL_MS) return cached.faces;
    const faces = this.faceModel().then((model) =>
      personRepository
        .descriptorsForTenant(this.deps.database.db, tenantId, model.id)
        .then((rows) => rows.map((r) => ({ personId: r.person_id, descriptor: descriptorFromBytes(r.descriptor, model.length) }))),
    );
    const entry: { loadedAt: number; faces: Promise<EnrolledFace[]>; people?: readonly string[] } = { loadedAt: now, faces };
    this.enrolled.set(tenantId, entry);
    void faces.then(
      (f) => (entry.people = [...new Set(f.map((x) => x.personId))].sort()),
      () => undefined,
    );
    faces.catch(() => {
      if (this.enrolled.get(tenantId) === entry) this.enrolled.delete(tenantId);
    });
    return faces;
  }

  /**
   * The tenant's people with an enrolled face as far as the cache knows now, for callers that
   * cannot wait (the sandbox's tick); null while it loads (the load is started).
   */
  enrolledPeopleNow(tenantId: string): readonly string[] | null {
    const cached = this.enrolled.get(tenantId);
    if (!cached || this.deps.clock.now() - cached.loadedAt >= ENROLLED_TTL_MS) {
      void this.enrolledFaces(tenantId).catch(() => undefined);
      return this.enrolled.get(tenantId)?.people ?? cached?.people ?? null;
    }
    return cached.people ?? null;
  }

  /**
   * A face was enrolled or a person erased (after the commit): every process drops the tenant's
   * faces; tracks recognized as an erased person start over (the same face becomes unrecognized).
   */
  async personChanged(tenantId: string, personId: string): Promise<void> {
    if (this.deps.invalidation) await this.deps.invalidation.publish(PEOPLE_TOPIC, `${tenantId}/${personId}`);
    else this.forgetLocally(tenantId, personId);
  }

  private forgetLocally(tenantId: string, personId: string | undefined): void {
    this.enrolled.delete(tenantId);
    if (!personId) return;
    for (const r of this.byTenant.get(tenantId) ?? []) r.forgetPerson(personId);
  }
}
