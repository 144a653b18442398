import { type Actor, type Principal } from '../../platform/identity/index.ts';
import type { DatabaseHandle } from '../../platform/db/index.ts';
import type { Clock } from '../../platform/time/index.ts';
import { VigilError, invalid, notFound } from '../../platform/lib/index.ts';
import type { AuditService } from '../../platform/audit/index.ts';
import type { DetectionPipeline, IngestGate, WithheldReason } from '../pipeline/index.ts';
import { toDetectionView, type DetectionView, type SceneService } from '../scenes/index.ts';
import { findStream } from '../streams/index.ts';
import { kindOf } from '../../platform/kinds/index.ts';
import { findPerson } from '../people/index.ts';
import type { InjectDetectionBodyT } from './sandbox.schemas.ts';

/**
 * Sandbox test helper (docs/design.md "Sandbox"): puts one synthetic detection into a
 * sandbox stream now, through the real pipeline, so an integrator can make an anomaly, an alert
 * or a watch event happen on demand instead of waiting for the scenario to produce one.
 */
export class SandboxService {
  constructor(
    private readonly deps: {
      database: DatabaseHandle;
      clock: Clock;
      audit: AuditService;
      pipeline: DetectionPipeline;
      gate?: IngestGate;
      scenes?: Pick<SceneService, 'ensureLoaded'>;
    },
  ) {}

  async injectDetection(principal: Principal, actor: Actor, body: InjectDetectionBodyT): Promise<DetectionView> {
    const stream = await findStream(this.deps.database.db, principal.tenantId, body.stream_id);
    if (!stream || (principal.locations && !principal.locations.includes(stream.location))) throw notFound('stream', body.stream_id, 'stream_id');
    if (!stream.sandbox) {
      throw new VigilError('stream_not_sandbox', `Stream ${stream.id} reads a real source; synthetic detections go only into sandbox streams.`, {
        param: 'stream_id',
      });
    }
    // what each type must carry is the table of detection kinds' (platform/kinds)
    const kind = kindOf(body.type);
    if (kind?.requires && body[kind.requires] === undefined) throw invalid(kind.requires, `is required for ${body.type}`);
    if (kind?.subtypes && !kind.subtypes.some((k) => k === body.subtype))
      throw invalid('subtype', `is required for ${body.type}: ${kind.subtypes.join(' or ')}`);
    // a recognized person names someone enrolled; recognized without a person (or a person without recognized) says nothing true
    if (body.type === 'person' && body.subtype === 'recognized' && !body.person_id) throw invalid('person_id', 'is required with subtype recognized');
    if (body.person_id !== undefined) {
      if (body.type !== 'person' || (body.subtype ?? 'recognized') !== 'recognized')
        throw invalid('person_id', 'goes only with a person of subtype recognized');
      if (!(await findPerson(this.deps.database.db, principal.tenantId, body.person_id)))
        throw invalid('person_id', `no person ${body.person_id} here (POST /v1/people)`);
    }
    assertLooking(this.deps.gate?.withheldReason(stream.id) ?? null, stream.id);
    // the stream may have been created through another node after this one started
    await this.deps.scenes?.ensureLoaded(stream.scene_id);
    const [rec] = await this.deps.pipeline.ingest({ id: stream.id, tenant_id: stream.tenant_id, scene_id: stream.scene_id, location: stream.location }, [
      {
        type: body.type,
        subtype: body.person_id ? 'recognized' : (body.subtype ?? null),
        person_id: body.person_id ?? null,
        value: body.value ?? null,
        count: body.count ?? null,
        confidence: body.confidence ?? 0.9,
        at: this.deps.clock.now(),
        dwell_s: body.dwell_s ?? null,
        track_id: body.track_id ?? null,
      },
    ]);
    // a mute or boundary committed while this waited in the pipeline's queue dropped it
    if (!rec) assertLooking(this.deps.gate?.withheldReason(stream.id) ?? 'muted', stream.id);
    await this.deps.audit.append(actor, {
      tenantId: principal.tenantId,
      action: 'sandbox.detection_injected',
      resourceType: 'detection',
      resourceId: rec.id,
      data: { stream_id: stream.id, type: rec.type, subtype: rec.subtype },
      scope: { location: stream.location, streamId: stream.id },
    });
    return toDetectionView(rec);
  }
}

/**
 * A household sensor that is muted or left alone is not looked at: a synthetic
 * detection into it is refused like any other input, so nothing about it is recorded.
 */
function assertLooking(reason: WithheldReason | null, streamId: string): void {
  if (reason === 'muted') {
    throw new VigilError('sensor_muted', `Sensor ${streamId} is muted: nothing from it is taken in until it is unmuted.`, { param: 'stream_id' });
  }
  if (reason === 'left_alone') {
    throw new VigilError(
      'sensor_left_alone',
      `Sensor ${streamId} is in a place the household asked to leave alone: nothing from it is taken in until that is lifted.`,
      {
        param: 'stream_id',
      },
    );
  }
}
