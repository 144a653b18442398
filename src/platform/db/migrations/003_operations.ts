import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect-name.ts';

/**
 * Surface B operations: alert rules and fired alerts, incidents with their
 * linked detections and notes, responders, organization-defined protocol types, protocol runs and
 * the responders each run notified, and per-organization automation settings. Instants the
 * service schedules or compares by are epoch-ms bigints; display times are ISO text.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const bigint = dialect === 'postgres' ? 'bigint' : 'integer';
  const real = dialect === 'postgres' ? 'double precision' : 'real';

  await createAutomationSettings(db);
  await createAlertRules(db, real);
  await createIncidents(db, bigint);
  await createAlerts(db, real, bigint);
  await createIncidentDetectionsAndNotes(db, bigint);
  await createResponders(db);
  await createProtocols(db, bigint);
}

/** Per-organization automation settings. */
async function createAutomationSettings(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('automation_settings')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id'))
    .addColumn('incidents_paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('escalation_paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('incident_gap_s', 'integer', (c) => c.notNull())
    .addColumn('escalation_after_s', 'integer', (c) => c.notNull())
    .addColumn('business_hours', 'text', (c) => c.notNull()) // JSON Schedule
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

/** Alert rules. */
async function createAlertRules(db: Kysely<any>, real: string): Promise<void> {
  await db.schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull()) // JSON RuleCondition
    .addColumn('min_confidence', sql.raw(real), (c) => c.notNull().defaultTo(0))
    .addColumn('locations', 'text') // JSON string[] | null = every location
    .addColumn('stream_ids', 'text') // JSON string[] | null = every stream
    .addColumn('schedule', 'text') // JSON Schedule | null = always
    .addColumn('cooldown_s', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // active | paused
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_rules_tenant').on('alert_rules').columns(['tenant_id', 'id']).execute();
}

/** Incidents. */
async function createIncidents(db: Kysely<any>, bigint: string): Promise<void> {
  await db.schema
    .createTable('incidents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('scene_id', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull()) // manual | automatic
    .addColumn('last_activity_at', sql.raw(bigint), (c) => c.notNull())
    .addColumn('acknowledged_at', 'text')
    .addColumn('closed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incidents_tenant').on('incidents').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('incidents_scene_status').on('incidents').columns(['scene_id', 'status', 'last_activity_at']).execute();
}

/** Fired alerts, each with a snapshot of its rule's condition and of the detection. */
async function createAlerts(db: Kysely<any>, real: string, bigint: string): Promise<void> {
  await db.schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('rule_name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull()) // open | acknowledged
    .addColumn('stream_id', 'text', (c) => c.notNull())
    .addColumn('scene_id', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('incident_id', 'text')
    .addColumn('condition', 'text', (c) => c.notNull()) // JSON snapshot of the rule condition
    .addColumn('observed', sql.raw(real))
    .addColumn('detection', 'text', (c) => c.notNull()) // JSON snapshot of the detection
    .addColumn('detected_at', sql.raw(bigint), (c) => c.notNull())
    .addColumn('fired_at', 'text', (c) => c.notNull())
    .addColumn('acknowledged_at', 'text')
    .addColumn('acknowledged_by_key_id', 'text')
    .addColumn('acknowledged_by_operator', 'text')
    .execute();
  await db.schema.createIndex('alerts_tenant').on('alerts').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('alerts_incident').on('alerts').columns(['incident_id']).execute();
  await db.schema.createIndex('alerts_rule_scene').on('alerts').columns(['rule_id', 'scene_id', 'detected_at']).execute();
}

/** An incident's linked detections and its notes. */
async function createIncidentDetectionsAndNotes(db: Kysely<any>, bigint: string): Promise<void> {
  await db.schema
    .createTable('incident_detections')
    .addColumn('incident_id', 'text', (c) => c.notNull())
    .addColumn('detection_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('track_id', 'text')
    .addColumn('at', sql.raw(bigint), (c) => c.notNull())
    .addColumn('detection', 'text', (c) => c.notNull()) // JSON snapshot: outlives history retention
    .addPrimaryKeyConstraint('incident_detections_pk', ['incident_id', 'detection_id'])
    .execute();

  await db.schema
    .createTable('incident_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('incident_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_key_id', 'text')
    .addColumn('author_operator', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_notes_incident').on('incident_notes').columns(['incident_id', 'id']).execute();
}

/** Responders. */
async function createResponders(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('responders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull()) // person | system
    .addColumn('escalation_level', 'integer', (c) => c.notNull())
    .addColumn('webhook_url', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('sms', 'text')
    .addColumn('signing_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('responders_tenant').on('responders').columns(['tenant_id', 'id']).execute();
}

/** Organization-defined protocol types, protocol runs and the responders each run notified. */
async function createProtocols(db: Kysely<any>, bigint: string): Promise<void> {
  await db.schema
    .createTable('protocol_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('steps', 'text', (c) => c.notNull()) // JSON string[]
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('protocol_types_tenant_name', ['tenant_id', 'name'])
    .execute();

  await db.schema
    .createTable('protocol_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('incident_id', 'text', (c) => c.notNull().references('incidents.id'))
    .addColumn('protocol_type', 'text', (c) => c.notNull())
    .addColumn('steps', 'text', (c) => c.notNull()) // JSON string[] snapshot of the type's steps
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('escalation_level', 'integer', (c) => c.notNull())
    .addColumn('notify_responders', 'integer', (c) => c.notNull())
    .addColumn('responders_notified', 'integer', (c) => c.notNull())
    .addColumn('acknowledged_at', 'text')
    .addColumn('next_escalation_at', sql.raw(bigint))
    .addColumn('created_by_key_id', 'text')
    .addColumn('created_by_operator', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .execute();
  await db.schema.createIndex('protocol_runs_tenant').on('protocol_runs').columns(['tenant_id', 'id']).execute();
  await db.schema.createIndex('protocol_runs_incident').on('protocol_runs').columns(['incident_id']).execute();
  await db.schema.createIndex('protocol_runs_due').on('protocol_runs').columns(['status', 'next_escalation_at']).execute();

  await db.schema
    .createTable('protocol_notifications')
    .addColumn('run_id', 'text', (c) => c.notNull().references('protocol_runs.id'))
    .addColumn('responder_id', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('escalation_level', 'integer', (c) => c.notNull())
    .addColumn('delivery_event_id', 'text')
    .addColumn('notified_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('protocol_notifications_pk', ['run_id', 'responder_id'])
    .execute();
}
