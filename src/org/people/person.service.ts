import type { Actor, Principal } from '../../platform/identity/index.ts';
import { assertEveryLocation } from '../../platform/identity/index.ts';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import { mapPage, type PageQuery } from '../../platform/db/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import { toIso } from '../../platform/time/index.ts';
import { newId, notFound, VigilError } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import {
  decodeJpeg,
  descriptorToBytes,
  FaceEngineOverloadedError,
  FaceImageError,
  recognizeImage,
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
  if (err instanceof FaceEngineOverloadedError) return new VigilError('service_unavailable', 'Face recognition is busy; retry shortly.', { headers: { 'Retry-After': '1' } });
  if (!(err instanceof FaceImageError)) return err;
  return new VigilError(err.code, err.message, { param: 'body' });
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/**
 * Known people (issue 14 §1): staff, contractors, family. A face is enrolled from a JPEG by
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
    const row: PersonRow = { id: newId('person', now), tenant_id: principal.tenantId, name: body.name, note: body.note ?? null, created_at: toIso(now), updated_at: toIso(now) };
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
    const counts = await personRepository.faceCounts(db, principal.tenantId, page.data.map((p) => p.id));
    return mapPage(page, (r) => toPersonView(r, counts.get(r.id)));
  }

  async get(principal: Principal, id: string): Promise<PersonView> {
    const row = await this.load(principal, id);
    const counts = await personRepository.faceCounts(this.deps.database.db, principal.tenantId, [id]);
    return toPersonView(row, counts.get(id));
  }

  /** Enrols the one face of a JPEG (refused when none, several or too small). */
  async enrolFace(principal: Principal, actor: Actor, id: string, jpeg: Buffer, keepImage: boolean): Promise<PersonFaceView> {
    await this.load(principal, id);
    assertEveryLocation(principal, 'a known person (recognized at every location)');
    const engine = await this.deps.engine();
    const best = await engine.bestFace(jpeg).catch((err) => {
      throw toVigilError(err);
    });
    const now = this.deps.clock.now();
    const face = {
      id: newId('face', now),
      tenant_id: principal.tenantId,
      person_id: id,
      model: engine.model.id,
      descriptor: descriptorToBytes(best.descriptor, engine.model.length),
      crop: keepImage ? best.crop : null,
      size: Math.round(best.size),
      created_at: toIso(now),
    };
    const view: PersonFaceView = {
      id: face.id,
      object: 'person_face',
      person_id: id,
      model: face.model,
      size: face.size,
      box: best.box.map(round),
      image_kept: keepImage,
      created_at: face.created_at,
    };
    await this.deps.database.withWriteLock(async (trx) => {
      // the person may have been erased while the face was described
      if (!(await personRepository.findForTenant(trx, principal.tenantId, id))) throw notFound('person', id);
      await personRepository.insertFace(trx, face);
      await personRepository.touch(trx, id, face.created_at);
      await this.deps.audit.appendIn(trx, actor, [
        // the audit names the face, never its descriptor or image
        { tenantId: principal.tenantId, action: 'person.face_enrolled', resourceType: 'person', resourceId: id, data: { after: view } },
      ]);
    });
    await this.deps.live.personChanged(principal.tenantId, id);
    return view;
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
    return { id, object: 'person' as const, deleted: true as const, faces_deleted: facesDeleted };
  }

  /**
   * Faces of a phone frame against the tenant's enrolled people (issue 14 §5); null when the
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
