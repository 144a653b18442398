import { defineServiceModule, LOG, token } from '../../platform/lib/index.ts';
import { CLOCK } from '../../platform/time/index.ts';
import { CONFIG } from '../../platform/config/index.ts';
import { DATABASE } from '../../platform/db/index.ts';
import { AUDIT, AUDIT_TRAIL } from '../../platform/audit/index.ts';
import { WEBHOOKS } from '../../platform/outbox/index.ts';
import { defineApiModule } from '../../platform/http/index.ts';
import { resolveFfmpegPath } from '../../ingest/video/index.ts';
import { SNAPSHOTS } from '../detections/index.ts';
import { INGEST_GATE } from '../pipeline/index.ts';
import { STREAM_RECORDING } from '../sources/index.ts';
import { EvidenceBundles as EvidenceBundlesT, type IncidentTimeline } from './evidence-bundle.ts';
import { RecordingService as RecordingServiceT } from './recording.service.ts';
import { recordingRoutes } from './recording.routes.ts';
import { SegmentSchema } from './recording.schemas.ts';
// The module's public face: what other modules may import (docs/architecture.md).
export { RecordingService } from './recording.service.ts';
export { EvidenceBundles, EVIDENCE_FORMAT, type EvidenceManifest } from './evidence-bundle.ts';
export { verifyEvidence, type EvidenceReport } from './evidence-verifier.ts';

export const RECORDINGS = token<RecordingServiceT>('recordings');
export const EVIDENCE = token<EvidenceBundlesT>('evidence');
/** port: an incident with its timeline, as GET /v1/incidents/{id} shows it (org/incidents, wired by the composition root) */
export const INCIDENT_TIMELINE = token<IncidentTimeline>('incidentTimeline');

let ffmpeg: string | null = null;
const ffmpegPath = () => (ffmpeg ??= resolveFfmpegPath());

export const recordingServices = defineServiceModule({
  name: 'recordings',
  provide(c) {
    c.provide(RECORDINGS, (c) => {
      const config = c.get(CONFIG);
      return new RecordingServiceT({
        database: c.get(DATABASE),
        clock: c.get(CLOCK),
        audit: c.get(AUDIT),
        config: config.recordings,
        dataDir: config.dataDir,
        // a single node keeps one name across restarts, so it recovers what it left open
        nodeId: config.cluster ? config.nodeId : 'local',
        ffmpegPath,
        webhooks: c.get(WEBHOOKS),
        gate: c.get(INGEST_GATE),
        log: c.get(LOG),
      });
    });
    c.provide(STREAM_RECORDING, (c) => {
      const recordings = c.get(RECORDINGS);
      if (!recordings.enabled) return null;
      const key = (ref: { tenant_id: string; id: string }) => ({ tenantId: ref.tenant_id, streamId: ref.id });
      const withheld = (id: string) => () => !recordings.records(id);
      return {
        camera: (ref, opts) => {
          const inner = recordings.recorder.camera(key(ref), { ...opts, isWithheld: withheld(ref.id) });
          return {
            open: async (url: string, restart?: () => void) => {
              const session = await inner.open(url, restart);
              if (!session && recordings.records(ref.id)) void recordings.reportBlocked(ref.tenant_id, ref.id);
              return session;
            },
          };
        },
        whip: (ref) => {
          const inner = recordings.recorder.whip(key(ref), withheld(ref.id));
          return {
            openSync: (codec) => {
              const session = inner.openSync(codec);
              if (!session && recordings.records(ref.id)) void recordings.reportBlocked(ref.tenant_id, ref.id);
              return session;
            },
            stopped: (reason: string) => void recordings.sessionStoppedRecording(key(ref), reason),
          };
        },
        still: (ref, jpeg, at) => recordings.keepStill(key(ref), jpeg, at),
      };
    });
    c.provide(
      EVIDENCE,
      (c) =>
        new EvidenceBundlesT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          auditTrail: c.get(AUDIT_TRAIL),
          recordings: c.get(RECORDINGS),
          timeline: c.get(INCIDENT_TIMELINE),
          snapshotJpeg: (p, id) => c.get(SNAPSHOTS).getJpeg(p, id),
        }),
    );
  },
});

/** The recordings module's HTTP face: its tags, shared schemas and routes (docs/architecture.md). */
export const recordingsApi = defineApiModule({
  name: 'recordings',
  tags: [{ name: 'Recordings', description: 'Recorded segments, clips of any range, evidence bundles verifiable offline, legal holds' }],
  schemas: [SegmentSchema],
  routes: ({ recordings, evidence }: { recordings: RecordingServiceT; evidence: EvidenceBundlesT }) => recordingRoutes(recordings, evidence),
});
