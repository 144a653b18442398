import type { Capability, Principal } from '../../platform/identity/index.ts';
import { type Clock, toIso } from '../../platform/time/index.ts';
import type { DetectionBox, DetectionRecord } from '../detections/index.ts';
import type { PipelineHook } from '../pipeline/index.ts';
import { type SceneState, SOURCE_SILENCE_MS, toDetectionView } from '../scenes/index.ts';
import { ORGANIZATION_EVENT_KINDS } from '../../platform/outbox/index.ts';

/** One frame of the organization feed. */
export interface LiveEvent {
  /** an organization webhook kind, or `scene.updated` */
  kind: string;
  /** evt_… for webhook events; the scene id for scene updates */
  id: string;
  created_at: string;
  /** the location the event is about; keys limited to locations see only theirs (fail closed) */
  location: string | undefined;
  data: Record<string, unknown>;
}

/**
 * The latest video frame of a scene in an update period: the detections of one frame that carry
 * a box (real video), and a detection id whose snapshot shows that frame
 * (`GET /v1/detections/{detection_id}/snapshot`; they all share it).
 */
interface LiveFrame {
  detection_id: string;
  stream_id: string;
  at: number;
  objects: Array<{ type: string; subtype?: string; person_id?: string; track_id?: string; box: DetectionBox }>;
  /** the objects are the frame's whole set of tracked objects (frame_objects), not accumulated from its detections */
  whole?: boolean;
}

export const LIVE_EVENT_KINDS = ['scene.updated', ...ORGANIZATION_EVENT_KINDS] as const;

/** Which capability lets a key see an event kind (the read capability of the resource it is about). */
const CAPABILITY_OF: Record<string, Capability> = {
  'scene.updated': 'scenes:read',
  'detection.anomaly': 'scenes:read',
  'alert.fired': 'alerts:read',
  'incident.created': 'incidents:read',
  'incident.updated': 'incidents:read',
  'protocol.triggered': 'incidents:read',
  'protocol.state_changed': 'incidents:read',
  'stream.status_changed': 'streams:read',
};

/** The kinds a key will see on the feed (told in the first frame so a client knows what it is missing). */
export function visibleKinds(principal: Principal): string[] {
  return LIVE_EVENT_KINDS.filter((k) => principal.capabilities.has(CAPABILITY_OF[k]));
}

/** Scene counts move on every detection; a subscriber gets at most one update per scene per this period (the latest). */
export const SCENE_UPDATE_PERIOD_MS = 250;

/**
 * What a scene.updated frame says of its counts' freshness (docs/decisions.md, "Freshness"). A
 * detection read just now comes from a working source, so the counts are current. A reading older
 * than the sources' silence threshold (a late or back-filled detection) says only when it is from:
 * the frame cannot tell whether the scene's sources are live, so it leaves `sources_live` and
 * `stale` to the scene reads rather than calling an old count current.
 */
export function frameFreshness(detectionAt: number, now: number): { as_of: string; sources_live?: boolean; stale?: boolean } {
  if (now - detectionAt >= SOURCE_SILENCE_MS) return { as_of: toIso(detectionAt) };
  return { as_of: toIso(detectionAt), sources_live: true, stale: false };
}

type Listener = (e: LiveEvent) => void;

/**
 * The organization event feed: fans organization events out to open
 * `GET /v1/events/stream` connections of the tenant, in this process. Two sources: every
 * organization event the webhook outbox writes (alerts, incidents, protocol runs, stream status,
 * anomalies) and the scene engine (counts after each detection, coalesced per scene). It is a
 * live view, not a log: a client that reconnects re-reads state through the API.
 */
export class OrgEventFeed implements PipelineHook {
  private readonly listeners = new Map<string, Set<Listener>>();
  /** scene id → the state to send when the period ends */
  private readonly pendingScenes = new Map<string, { scene: SceneState; detection: DetectionRecord; frame: LiveFrame | null }>();
  private timer: unknown = null;

  constructor(private readonly deps: { clock: Clock }) {}

  /** Subscribes a principal; the listener gets only what the key may see. Returns the unsubscribe. */
  subscribe(principal: Principal, fn: Listener): () => void {
    const filtered: Listener = (e) => {
      const cap = CAPABILITY_OF[e.kind];
      if (!cap || !principal.capabilities.has(cap)) return;
      if (principal.locations && (e.location === undefined || !principal.locations.includes(e.location))) return;
      fn(e);
    };
    let set = this.listeners.get(principal.tenantId);
    if (!set) this.listeners.set(principal.tenantId, (set = new Set()));
    set.add(filtered);
    return () => {
      set.delete(filtered);
      if (set.size === 0 && this.listeners.get(principal.tenantId) === set) this.listeners.delete(principal.tenantId);
    };
  }

  /** Open subscriptions of a tenant (tests, metrics). */
  subscribers(tenantId: string): number {
    return this.listeners.get(tenantId)?.size ?? 0;
  }

  /** The webhook outbox's tap: every event it is asked to write (organization kinds only are forwarded). */
  publishWebhookEvent(e: {
    tenantId: string;
    kind: string;
    eventId: string;
    at: number;
    location: string | undefined;
    payload: Record<string, unknown>;
  }): void {
    if (!this.listeners.has(e.tenantId) || !CAPABILITY_OF[e.kind]) return;
    this.emit(e.tenantId, { kind: e.kind, id: e.eventId, created_at: toIso(e.at), location: e.location, data: e.payload });
  }

  /** PipelineHook: on the detection hot path, so only a map write unless someone of the tenant listens. */
  onDetection(rec: DetectionRecord, scene: SceneState): void {
    if (!this.listeners.has(scene.tenantId)) return;
    // the frame outlives the detections after it in the period (a frame's person is followed by
    // its person_count), so the wall can draw the latest snapshot with its boxes
    let frame = this.pendingScenes.get(scene.id)?.frame ?? null;
    if (rec.frame_objects?.length) {
      // real video says what it tracks in the frame: every object, not only the ones it reported
      const objects = rec.frame_objects.map((o) => ({ ...o }));
      if (!(frame && frame.stream_id === rec.stream_id && frame.at === rec.at && frame.whole))
        frame = { detection_id: rec.id, stream_id: rec.stream_id, at: rec.at, objects, whole: true };
    } else if (rec.box) {
      const object = {
        type: rec.type,
        ...(rec.subtype ? { subtype: rec.subtype } : {}),
        ...(rec.person_id ? { person_id: rec.person_id } : {}),
        ...(rec.track_id ? { track_id: rec.track_id } : {}),
        box: rec.box,
      };
      if (frame && frame.stream_id === rec.stream_id && frame.at === rec.at) {
        if (!frame.whole) frame.objects.push(object);
      } else frame = { detection_id: rec.id, stream_id: rec.stream_id, at: rec.at, objects: [object] };
    }
    this.pendingScenes.set(scene.id, { scene, detection: rec, frame });
    if (this.timer === null) this.timer = this.deps.clock.setTimeout(() => this.flushScenes(), SCENE_UPDATE_PERIOD_MS);
  }

  close(): void {
    this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    this.pendingScenes.clear();
    this.listeners.clear();
  }

  private flushScenes(): void {
    this.timer = null;
    const due = [...this.pendingScenes.values()];
    this.pendingScenes.clear();
    const now = this.deps.clock.now();
    for (const { scene, detection, frame } of due) {
      this.emit(scene.tenantId, {
        kind: 'scene.updated',
        id: scene.id,
        created_at: toIso(now),
        location: scene.location,
        data: {
          scene: {
            id: scene.id,
            location: scene.location,
            people_count: scene.people,
            vehicle_count: scene.vehicles,
            crowd_density: scene.crowdDensity,
            anomaly_flag: scene.activeAnomalies > 0,
            active_anomalies: scene.activeAnomalies,
            last_detection_at: scene.lastDetectionAt === null ? null : toIso(scene.lastDetectionAt),
            ...frameFreshness(detection.at, now),
          },
          detection: toDetectionView(detection),
          ...(frame ? { frame: { detection_id: frame.detection_id, stream_id: frame.stream_id, timestamp: toIso(frame.at), objects: frame.objects } } : {}),
        },
      });
    }
  }

  private emit(tenantId: string, e: LiveEvent): void {
    const set = this.listeners.get(tenantId);
    if (!set) return;
    for (const fn of [...set]) fn(e);
  }
}
