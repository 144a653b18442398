import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';
import * as m001 from './001_foundation.ts';
import * as m002 from './002_webhooks_audit.ts';
import * as m003 from './003_operations.ts';
import * as m004 from './004_household.ts';
import * as m005 from './005_video.ts'; // real video
import * as m006 from './006_audit_scope_checkpoints.ts'; // audit confinement and checkpoints
import * as m007 from './007_keys.ts'; // keys and authorization
import * as m008 from './008_privacy.ts'; // boundaries on every read path
import * as m010 from './010_webrtc_publish.ts'; // WebRTC ingest
import * as m011 from './011_console_sessions.ts'; // web console sessions
import * as m012 from './012_detection_boxes.ts'; // detection boxes on snapshots
import * as m013 from './013_people.ts'; // known people and faces
import * as m014 from './014_stream_leases.ts'; // stream ownership by lease, node heartbeats
import * as m015 from './015_scheduled_jobs.ts'; // durable scheduled jobs, run once cluster-wide
import * as m016 from './016_detection_person.ts'; // recognized people on detections
import * as m017 from './017_detections_hot_indexes.ts'; // one index fewer on the hot detections table
import * as m018 from './018_detection_person_partial.ts'; // the person index holds recognized sightings only
import * as m019 from './019_scene_stream_combine.ts'; // how a scene's streams combine: max or sum (docs/decisions.md)
import * as m020 from './020_audit_erasure.ts'; // an erased person's audit entries lose their content, not their place in the chain
import * as m021 from './021_cluster_shared_state.ts'; // node addresses for forwarding, cluster-wide alert cooldowns and scene anomalies
import * as m023 from './023_recordings.ts'; // recorded segments and legal holds (docs/decisions.md, "Recordings")
import * as m024 from './024_notifications.ts'; // push and email through the outbox, a key's devices, quiet hours, grouping
import * as m025 from './025_event_visits.ts'; // watch events grouped per visit (docs/decisions.md)
import * as m026 from './026_notification_pause.ts'; // "stop the notifications": a paused flag beside quiet hours and exclusions
import * as m028 from './028_streams_scene_index.ts'; // a scene's streams by index (docs/decisions.md)
import * as m029 from './029_audit_fewer_indexes.ts'; // audit entries in fewer b-trees (docs/decisions.md)

export interface DialectMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Ordered by name; append new migrations, never edit a landed one. */
export const MIGRATIONS: Record<string, DialectMigration> = {
  '001_foundation': m001,
  '002_webhooks_audit': m002,
  '003_operations': m003,
  '004_household': m004,
  '005_video': m005,
  '006_audit_scope_checkpoints': m006,
  '007_keys': m007,
  '008_privacy': m008,
  '010_webrtc_publish': m010,
  '011_console_sessions': m011,
  '012_detection_boxes': m012,
  '013_people': m013,
  '014_stream_leases': m014,
  '015_scheduled_jobs': m015,
  '016_detection_person': m016,
  '017_detections_hot_indexes': m017,
  '018_detection_person_partial': m018,
  '019_scene_stream_combine': m019,
  '020_audit_erasure': m020,
  '021_cluster_shared_state': m021,
  '023_recordings': m023,
  '024_notifications': m024,
  '025_event_visits': m025,
  '026_notification_pause': m026,
  '028_streams_scene_index': m028,
  '029_audit_fewer_indexes': m029,
};
