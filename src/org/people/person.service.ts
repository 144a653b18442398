import { type Actor, type Principal, assertEveryLocation } from '../../platform/identity/index.ts';
import { type DatabaseHandle, type PageQuery, mapPage } from '../../platform/db/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import { newId, notFound, VigilError } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import {
  decodeJpeg,
  descriptorToBytes,
  FaceEngineOverloadedError,
  FaceImageError,
  recognizeImage,
  type BestFace,
  type FaceEngine,
} from '../../ingest/faces/index.ts';
import type { FrameFace, FrameFaceRecognizer } from '../streams/index.ts';
import { erasePersonIn } from './erasure.ts';
import { personRepository, type PersonRow } from './person.repository.ts';
import type { LiveRecognition } from './live-recognition.ts';
import type { CreatePersonBodyT, PersonFaceView, PersonView } from './person.schemas.ts';

function toPersonView(r: PersonRow, counts?: { faces: number; kept: number }): PersonView {
  return {
    id: r.id,
    object: 'person',
    name: r.name,
    note: r.note,
    faces: counts?.faces ?? 0,
    kept_images: counts?.kept ?? 0,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The engine's errors as catalogue errors: image problems named against the body (the JPEG). */
function toVigilError(err: unknown): unknown {
  if (err instanceof FaceEngineOverloadedError)
    return new VigilError('service_unavailable', 'Face recognition is busy; retry shortly.', { headers: { 'Retry-After': '1' } });
  if (!(err instanceof FaceImageError)) return err;
  return new VigilError(err.code, err.message, { param: 'body' });
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Known people: staff, contractors, family. A face is enrolled from a JPEG by
 * explicit request (the consent), stored as a descriptor, never as the photo; a JPEG crop of the
 * face only with keep_image. Deleting a person erases every descriptor and crop (audited).
 * Recognition of phone frames (FrameFaceRecognizer) runs only for tenants that turned it on.
 */
export class PeopleService implements FrameFaceRecognizer {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      /** the face engine, started on first use (its worker loads ~9 MB of models) */
      engine: () => Promise<FaceEngine>;
      /** the tenant's opt-in (organization automation settings, face_recognition) */
      recognitionEnabled: (tenantId: string) => boolean;
      /** live recognition: the tenant's enrolled faces (cached), told of enrolments and erasures */
      live: LiveRecognition;
    },
  ) {}

  async create(principal: Principal, actor: Actor, body: CreatePersonBodyT): Promise<PersonView> {
    assertEveryLocation(principal, 'a known person (recognized at every location)');
    const now = this.deps.clock.now();
    const row: PersonRow = {
      id: newId('person', now),
      tenant_id: principal.tenantId,
      name: body.name,
      note: body.note ?? null,
      created_at: toIso(now),
      updated_at: toIso(now),
    };
    await this.deps.database.withWriteLock(async (trx) => {
      await personRepository.insert(trx, row);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'person.created', resourceType: 'person', resourceId: row.id, data: { after: toPersonView(row) } },
      ]);
    });
    return toPersonView(row);
  }

  async list(principal: Principal, q: PageQuery) {
    const db = this.deps.database.db;
    const page = await personRepository.listPage(db, principal.tenantId, q);
    const counts = await personRepository.faceCounts(
      db,
      principal.tenantId,
      page.data.map((p) => p.id),
    );
    return mapPage(page, (r) => toPersonView(r, counts.get(r.id)));
  }

  async get(principal: Principal, id: string): Promise<PersonView> {
    const row = await this.load(principal, id);
    const counts = await personRepository.faceCounts(this.deps.database.db, principal.tenantId, [id]);
    return toPersonView(row, counts.get(id));
  }

  /** Enrols the one face of a JPEG (refused when none, several or too small). */
  async enrolFace(principal: Principal, actor: Actor, id: string, jpeg: Buffer, keepImage: boolean): Promise<PersonFaceView> {
    const [view] = await this.enrol(principal, actor, id, [jpeg], keepImage, () => 'body');
    return view;
  }

  /**
   * Enrols the one face of each of several JPEGs (base64), all or none: a photo that cannot give
   * a face refuses the request naming it (photos[i]), and nothing is stored.
   */
  async enrolFaces(
    principal: Principal,
    actor: Actor,
    id: string,
    photos: readonly string[],
    keepImage: boolean,
  ): Promise<{ object: 'list'; data: PersonFaceView[] }> {
    const jpegs = photos.map((p, i) => {
      const text = p.replace(/\s+/g, '');
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 !== 0) {
        throw new VigilError('invalid_image', `photos[${i}] is not base64 text`, { param: `photos[${i}]` });
      }
      return Buffer.from(text, 'base64');
    });
    return { object: 'list', data: await this.enrol(principal, actor, id, jpegs, keepImage, (i) => `photos[${i}]`) };
  }

  private async enrol(
    principal: Principal,
    actor: Actor,
    id: string,
    jpegs: readonly Buffer[],
    keepImage: boolean,
    param: (i: number) => string,
  ): Promise<PersonFaceView[]> {
    await this.load(principal, id);
    assertEveryLocation(principal, 'a known person (recognized at every location)');
    const engine = await this.deps.engine();
    // every photo is described before anything is stored: one that fails refuses them all
    const bests: BestFace[] = [];
    for (const [i, jpeg] of jpegs.entries()) {
      bests.push(
        await engine.bestFace(jpeg).catch((err) => {
          const e = toVigilError(err);
          if (e instanceof VigilError && err instanceof FaceImageError && param(i) !== 'body') {
            throw new VigilError(e.code, `photos[${i}]: ${e.message}`, { param: param(i) });
          }
          throw e;
        }),
      );
    }
    const now = this.deps.clock.now();
    const faces = bests.map((best) => ({
      id: newId('face', now),
      tenant_id: principal.tenantId,
      person_id: id,
      model: engine.model.id,
      descriptor: descriptorToBytes(best.descriptor, engine.model.length),
      crop: keepImage ? best.crop : null,
      size: Math.round(best.size),
      created_at: toIso(now),
    }));
    const views: PersonFaceView[] = faces.map((face, i) => ({
      id: face.id,
      object: 'person_face',
      person_id: id,
      model: face.model,
      size: face.size,
      box: bests[i].box.map(round),
      image_kept: keepImage,
      created_at: face.created_at,
    }));
    await this.deps.database.withWriteLock(async (trx) => {
      // the person may have been erased while the faces were described
      if (!(await personRepository.findForTenant(trx, principal.tenantId, id))) throw notFound('person', id);
      for (const face of faces) await personRepository.insertFace(trx, face);
      await personRepository.touch(trx, id, faces[0].created_at);
      await this.deps.audit.appendIn(
        trx,
        actor,
        // the audit names each face, never its descriptor or image
        views.map((view) => ({ tenantId: principal.tenantId, action: 'person.face_enrolled', resourceType: 'person', resourceId: id, data: { after: view } })),
      );
    });
    await this.deps.live.personChanged(principal.tenantId, id);
    return views;
  }

  /** Right to erasure: the person, every descriptor and every kept crop, in one transaction. */
  async remove(principal: Principal, actor: Actor, id: string) {
    await this.get(principal, id); // 404 for another tenant's or an unknown id
    assertEveryLocation(principal, 'a known person (recognized at every location)');
    let facesDeleted = 0;
    await this.deps.database.withWriteLock(async (trx) => {
      facesDeleted = await personRepository.deleteWithFaces(trx, principal.tenantId, id);
      // erasure: every read that named them stops doing so, the audit trail included (its earlier
      // entries about them lose their content); this entry records that it happened, not who
      const erased = await erasePersonIn(trx, this.deps.audit, principal.tenantId, id);
      await this.deps.audit.appendIn(trx, actor, [
        { tenantId: principal.tenantId, action: 'person.deleted', resourceType: 'person', resourceId: id, data: { faces_deleted: facesDeleted, erased } },
      ]);
    });
    // after the commit: live tracks recognized as them start over, every process drops the faces
    await this.deps.live.personChanged(principal.tenantId, id);
    // recordings of a place are not erased with a person who appears in them (README, "Recordings")
    return { id, object: 'person' as const, deleted: true as const, faces_deleted: facesDeleted, recordings: 'kept' as const };
  }

  /**
   * Faces of a phone frame against the tenant's enrolled people; null when the
   * tenant has not turned recognition on, and then no descriptor is computed.
   */
  async recognizeFrame(tenantId: string, jpeg: Buffer): Promise<FrameFace[] | null> {
    if (!this.deps.recognitionEnabled(tenantId)) return null;
    const enrolled = await this.deps.live.enrolledFaces(tenantId);
    const engine = await this.deps.engine();
    const image = await decodeJpeg(jpeg).catch((err) => {
      throw toVigilError(err);
    });
    const verdicts = await recognizeImage(engine, image, enrolled, { threshold: engine.model.threshold }).catch((err) => {
      throw toVigilError(err);
    });
    return verdicts.map((v) => ({
      status: v.status,
      person_id: v.personId,
      similarity: v.similarity === null ? null : round(v.similarity),
      box: v.box.map(round),
    }));
  }

  private async load(principal: Principal, id: string): Promise<PersonRow> {
    const row = await personRepository.findForTenant(this.deps.database.db, principal.tenantId, id);
    if (!row) throw notFound('person', id);
    return row;
  }
}
