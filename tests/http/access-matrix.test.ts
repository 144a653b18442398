/**
 * The cross-tenant and cross-location matrix: every operation in
 * openapi.json is called (a) with a key of another organization or household, against real
 * resources of the first, and (b) with an organization key limited to another location, against
 * resources at north_gate. A leak is a status other than the expected one, or a response that
 * carries an id (or, for (b), the name) of a resource out of the caller's reach. Owners' reads of
 * the same resources succeed first, so every 404 below means "refused", not "missing".
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import type { DetectionRecord } from '../../src/platform/kinds/index.ts';

type Key = { key: string; id: string; tenant_id: string };
type Surface = 'public' | 'organization' | 'household' | 'any';
/** item: answers 404; ref: refuses a body naming the resource (4xx); scan: a list, create or read of one's own (no leak, no 5xx); token: 401, the route takes a stream's publish token and never an API key */
type Expect = 'item' | 'ref' | 'scan' | 'token';

interface Req {
  method: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** The resources one side owns (organization A at north_gate, or household H1). */
interface Side {
  kind: 'organization' | 'household';
  owner: Key;
  r: Record<string, string>;
}

interface Probe {
  surface: Surface;
  expect: Expect;
  /** case (b) for resources that belong to the whole organization rather than to a location */
  expectB?: Expect;
  req(side: Side): Req;
  /** an id the owner's answer must contain (positive control for reads) */
  contains?(side: Side): string;
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const get = (url: string): Req => ({ method: 'GET', url });
const post = (url: string, payload?: unknown): Req => ({ method: 'POST', url, ...(payload !== undefined ? { payload } : {}) });
const patch = (url: string, payload: unknown): Req => ({ method: 'PATCH', url, payload });
const del = (url: string): Req => ({ method: 'DELETE', url });

/** One probe per operationId; the test fails when openapi.json has an operation not listed here. */
const PROBES: Record<string, Probe> = {
  healthz: { surface: 'public', expect: 'scan', req: () => get('/healthz') },
  readyz: { surface: 'public', expect: 'scan', req: () => get('/readyz') },
  metrics: { surface: 'public', expect: 'scan', req: () => get('/metrics') },

  createStream: {
    surface: 'organization',
    expect: 'scan',
    req: () =>
      post('/v1/streams', { name: 'Probe cam', source_type: 'sandbox', source_url: 'sandbox://north_gate?scenario=lobby&seed=3', location: 'north_gate' }),
  },
  listStreams: { surface: 'organization', expect: 'scan', req: () => get('/v1/streams?limit=100'), contains: (s) => s.r.stream },
  getStream: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/streams/${s.r.stream}`), contains: (s) => s.r.stream },
  updateStream: { surface: 'organization', expect: 'item', req: (s) => patch(`/v1/streams/${s.r.stream}`, { name: 'Renamed' }) },
  deleteStream: { surface: 'organization', expect: 'item', req: (s) => del(`/v1/streams/${s.r.stream}`) },
  rotateStreamPublishToken: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/streams/${s.r.webrtc}/publish-token`) },
  revokeStreamPublishToken: { surface: 'organization', expect: 'item', req: (s) => del(`/v1/streams/${s.r.webrtc}/publish-token`) },
  pushStreamFrame: {
    surface: 'organization',
    expect: 'item',
    req: (s) => ({ method: 'POST', url: `/v1/streams/${s.r.stream}/frames`, payload: JPEG, headers: { 'content-type': 'image/jpeg' } }),
  },

  listScenes: { surface: 'organization', expect: 'scan', req: () => get('/v1/scenes?limit=100'), contains: (s) => s.r.scene },
  getScene: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/scenes/${s.r.scene}`), contains: (s) => s.r.scene },
  updateScene: { surface: 'organization', expect: 'item', req: (s) => patch(`/v1/scenes/${s.r.scene}`, { capacity: 10 }) },
  queryScene: {
    surface: 'organization',
    expect: 'item',
    req: (s) => post(`/v1/scenes/${s.r.scene}/query`, { stream_id: s.r.stream, query: 'How many people are here right now?', window: '15m' }),
  },
  injectSandboxDetection: { surface: 'organization', expect: 'item', req: (s) => post('/v1/sandbox/detections', { stream_id: s.r.stream, type: 'person' }) },
  getDetectionSnapshot: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/detections/${s.r.detection}/snapshot`) },
  getStreamSnapshot: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/streams/${s.r.stream}/snapshot`) },
  listStreamDetections: {
    surface: 'organization',
    expect: 'item',
    req: (s) => get(`/v1/streams/${s.r.stream}/detections?limit=100`),
    contains: (s) => s.r.detection,
  },
  // WHIP (RFC 9725): publish tokens only; any API key, the owner's included, is refused before the stream is looked at
  whipPublish: {
    surface: 'organization',
    expect: 'token',
    req: (s) => ({ method: 'POST', url: `/v1/streams/${s.r.webrtc}/whip`, payload: 'v=0\r\n', headers: { 'content-type': 'application/sdp' } }),
  },
  whipTrickle: {
    surface: 'organization',
    expect: 'token',
    req: (s) => ({
      method: 'PATCH',
      url: `/v1/streams/${s.r.webrtc}/whip/whip_probe`,
      payload: 'a=end-of-candidates\r\n',
      headers: { 'content-type': 'application/trickle-ice-sdpfrag', 'if-match': '*' },
    }),
  },
  whipEnd: { surface: 'organization', expect: 'token', req: (s) => del(`/v1/streams/${s.r.webrtc}/whip/whip_probe`) },

  createWebhook: { surface: 'any', expect: 'scan', req: () => post('/v1/webhooks', { url: 'http://127.0.0.1:9/probe' }) },
  listWebhooks: { surface: 'any', expect: 'scan', req: () => get('/v1/webhooks?limit=100'), contains: (s) => s.r.webhook },
  getWebhook: { surface: 'any', expect: 'item', req: (s) => get(`/v1/webhooks/${s.r.webhook}`), contains: (s) => s.r.webhook },
  updateWebhook: { surface: 'any', expect: 'item', req: (s) => patch(`/v1/webhooks/${s.r.webhook}`, { description: 'probed' }) },
  deleteWebhook: { surface: 'any', expect: 'item', req: (s) => del(`/v1/webhooks/${s.r.webhook}`) },
  rotateWebhookSecret: { surface: 'any', expect: 'item', req: (s) => post(`/v1/webhooks/${s.r.webhook}/rotate-secret`) },
  listWebhookDeliveries: { surface: 'any', expect: 'item', req: (s) => get(`/v1/webhooks/${s.r.webhook}/deliveries`), contains: (s) => s.r.delivery },
  redeliverWebhook: { surface: 'any', expect: 'item', req: (s) => post(`/v1/webhooks/${s.r.webhook}/deliveries/${s.r.delivery}/redeliver`) },

  getVapidPublicKey: { surface: 'any', expect: 'scan', req: () => get('/v1/notifications/vapid-public-key') },
  createNotificationSubscription: {
    surface: 'any',
    expect: 'scan',
    req: () => post('/v1/notification-subscriptions', { channel: 'email', address: 'probe@example.com' }),
  },
  listNotificationSubscriptions: {
    surface: 'any',
    expect: 'scan',
    req: () => get('/v1/notification-subscriptions?limit=100'),
    contains: (s) => s.r.subscription,
  },
  revokeNotificationSubscription: { surface: 'any', expect: 'item', req: (s) => del(`/v1/notification-subscriptions/${s.r.subscription}`) },
  listNotificationDeliveries: { surface: 'any', expect: 'item', req: (s) => get(`/v1/notification-subscriptions/${s.r.subscription}/deliveries`) },
  redeliverNotification: {
    surface: 'any',
    expect: 'item',
    req: (s) => post(`/v1/notification-subscriptions/${s.r.subscription}/deliveries/${s.r.delivery}/redeliver`),
  },
  getNotificationPreferences: { surface: 'any', expect: 'scan', req: () => get('/v1/notification-preferences') },
  setNotificationPreferences: {
    surface: 'any',
    expect: 'scan',
    req: () => ({ method: 'PUT', url: '/v1/notification-preferences', payload: { quiet_hours: null } }),
  },

  listAuditEntries: { surface: 'any', expect: 'scan', req: () => get('/v1/audit?limit=100') },
  verifyAuditTrail: { surface: 'any', expect: 'scan', req: () => get('/v1/audit/verify') },
  exportAuditTrail: { surface: 'any', expect: 'scan', req: () => get('/v1/audit/export') },
  listAuditCheckpoints: { surface: 'any', expect: 'scan', req: () => get('/v1/audit/checkpoints') },

  createKey: { surface: 'any', expect: 'scan', req: () => post('/v1/keys', {}) },
  listKeys: { surface: 'any', expect: 'scan', req: () => get('/v1/keys?limit=100'), contains: (s) => s.r.key },
  getKey: { surface: 'any', expect: 'item', req: (s) => get(`/v1/keys/${s.r.key}`), contains: (s) => s.r.key },
  revokeKey: { surface: 'any', expect: 'item', req: (s) => del(`/v1/keys/${s.r.key}`) },
  rotateKey: { surface: 'any', expect: 'item', req: (s) => post(`/v1/keys/${s.r.key}/rotate`) },

  getHousehold: { surface: 'household', expect: 'scan', req: () => get('/v1/household'), contains: (s) => s.owner.tenant_id },
  getHouseholdMqttBroker: { surface: 'household', expect: 'scan', req: () => get('/v1/household/mqtt-broker') },
  setHouseholdMqttBroker: { surface: 'household', expect: 'scan', req: () => ({ method: 'PUT', url: '/v1/household/mqtt-broker', payload: { url: null } }) },
  listWatches: { surface: 'household', expect: 'scan', req: () => get('/v1/watches?limit=100'), contains: (s) => s.r.watch },
  getWatch: { surface: 'household', expect: 'item', req: (s) => get(`/v1/watches/${s.r.watch}`), contains: (s) => s.r.watch },
  standDownWatch: { surface: 'household', expect: 'item', req: (s) => del(`/v1/watches/${s.r.watch}`) },
  listEvents: { surface: 'household', expect: 'scan', req: () => get('/v1/events?limit=100'), contains: (s) => s.r.event },
  converse: {
    surface: 'household',
    expect: 'item',
    req: (s) => post('/v1/conversations', { message: 'what does the driveway show?', conversation_id: s.r.conversation }),
  },
  listConversations: { surface: 'household', expect: 'scan', req: () => get('/v1/conversations?limit=100'), contains: (s) => s.r.conversation },
  getConversation: { surface: 'household', expect: 'item', req: (s) => get(`/v1/conversations/${s.r.conversation}`), contains: (s) => s.r.conversation },

  createAlertRule: {
    surface: 'organization',
    expect: 'ref',
    req: (s) => post('/v1/alert-rules', { name: 'Probe rule', condition: { type: 'person' }, stream_ids: [s.r.stream] }),
  },
  listAlertRules: { surface: 'organization', expect: 'scan', req: () => get('/v1/alert-rules?limit=100'), contains: (s) => s.r.rule },
  getAlertRule: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/alert-rules/${s.r.rule}`), contains: (s) => s.r.rule },
  updateAlertRule: { surface: 'organization', expect: 'item', req: (s) => patch(`/v1/alert-rules/${s.r.rule}`, { name: 'Renamed rule' }) },
  deleteAlertRule: { surface: 'organization', expect: 'item', req: (s) => del(`/v1/alert-rules/${s.r.rule}`) },
  pauseAlertRule: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/alert-rules/${s.r.rule}/pause`) },
  resumeAlertRule: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/alert-rules/${s.r.rule}/resume`) },
  listAlerts: { surface: 'organization', expect: 'scan', req: () => get('/v1/alerts?limit=100'), contains: (s) => s.r.alert },
  getAlert: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/alerts/${s.r.alert}`), contains: (s) => s.r.alert },
  acknowledgeAlert: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/alerts/${s.r.alert}/acknowledge`) },

  createIncident: { surface: 'organization', expect: 'item', req: (s) => post('/v1/incidents', { stream_id: s.r.stream }) },
  listIncidents: { surface: 'organization', expect: 'scan', req: () => get('/v1/incidents?limit=100'), contains: (s) => s.r.incident },
  getIncident: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/incidents/${s.r.incident}`), contains: (s) => s.r.incident },
  // recordings, clips and evidence: another tenant's or location's stream, incident or alert is 404
  listRecordings: {
    surface: 'organization',
    expect: 'item',
    req: (s) => get(`/v1/streams/${s.r.stream}/recordings?from=2026-01-01T00:00:00Z&to=2026-01-01T00:10:00Z`),
  },
  deleteRecordings: {
    surface: 'organization',
    expect: 'item',
    req: (s) => del(`/v1/streams/${s.r.stream}/recordings?from=2026-01-01T00:00:00Z&to=2026-01-01T00:10:00Z`),
  },
  getStreamClip: {
    surface: 'organization',
    expect: 'item',
    req: (s) => get(`/v1/streams/${s.r.stream}/clip?from=2026-01-01T00:00:00Z&to=2026-01-01T00:10:00Z`),
  },
  getIncidentClip: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/incidents/${s.r.incident}/clip`) },
  getAlertClip: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/alerts/${s.r.alert}/clip`) },
  getIncidentEvidence: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/incidents/${s.r.incident}/evidence`) },
  setIncidentLegalHold: {
    surface: 'organization',
    expect: 'item',
    req: (s) => ({ method: 'PUT', url: `/v1/incidents/${s.r.incident}/legal-hold`, payload: { reason: 'probe' } }),
  },
  releaseIncidentLegalHold: { surface: 'organization', expect: 'item', req: (s) => del(`/v1/incidents/${s.r.incident}/legal-hold`) },
  updateIncident: { surface: 'organization', expect: 'item', req: (s) => patch(`/v1/incidents/${s.r.incident}`, { title: 'Probed' }) },
  addIncidentNote: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/incidents/${s.r.incident}/notes`, { body: 'probe' }) },
  triggerProtocol: {
    surface: 'organization',
    expect: 'item',
    req: (s) => post(`/v1/incidents/${s.r.incident}/protocol`, { protocol_type: 'unauthorized_access', notify_responders: false, escalation_level: 1 }),
  },

  listProtocolTypes: { surface: 'organization', expect: 'scan', req: () => get('/v1/protocols'), contains: (s) => s.r.protocolType },
  createProtocolType: { surface: 'organization', expect: 'scan', req: () => post('/v1/protocols', { name: 'probe_drill', steps: ['call the desk'] }) },
  getProtocolRun: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/protocol-runs/${s.r.run}`), contains: (s) => s.r.run },
  listProtocolRunNotifications: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/protocol-runs/${s.r.run}/notifications`) },
  pauseProtocolRun: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/protocol-runs/${s.r.run}/pause`) },
  resumeProtocolRun: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/protocol-runs/${s.r.run}/resume`) },
  terminateProtocolRun: { surface: 'organization', expect: 'item', req: (s) => post(`/v1/protocol-runs/${s.r.run}/terminate`) },
  overrideProtocolRun: {
    surface: 'organization',
    expect: 'item',
    req: (s) => post(`/v1/protocol-runs/${s.r.run}/override`, { escalation_level: 2, reason: 'probe' }),
  },

  // responders and automation belong to the whole organization, not to a location: a key limited
  // to front_desk may read them (nothing of north_gate is in them) but not change them
  createResponder: {
    surface: 'organization',
    expect: 'scan',
    req: () =>
      post('/v1/responders', { name: 'Probe desk', kind: 'person', escalation_level: 1, contact: { webhook_url: 'http://127.0.0.1:9/probe-responder' } }),
  },
  listResponders: { surface: 'organization', expect: 'scan', req: () => get('/v1/responders?limit=100'), contains: (s) => s.r.responder },
  getResponder: {
    surface: 'organization',
    expect: 'item',
    expectB: 'scan',
    req: (s) => get(`/v1/responders/${s.r.responder}`),
    contains: (s) => s.r.responder,
  },
  updateResponder: {
    surface: 'organization',
    expect: 'item',
    expectB: 'ref',
    req: (s) => patch(`/v1/responders/${s.r.responder}`, { contact: { webhook_url: 'http://127.0.0.1:9/stolen' } }),
  },
  deleteResponder: { surface: 'organization', expect: 'item', expectB: 'ref', req: (s) => del(`/v1/responders/${s.r.responder}`) },
  // web console sign-in: each key only ever makes, reads or ends its own sessions
  createConsoleSession: { surface: 'any', expect: 'scan', req: () => post('/v1/console/sessions', { operator: 'Probe' }) },
  getConsoleSession: { surface: 'any', expect: 'scan', req: () => get('/v1/console/session'), contains: (s) => s.owner.id },
  deleteConsoleSession: { surface: 'any', expect: 'scan', req: () => del('/v1/console/session') },
  // the organization live feed: a feed of one's own tenant; its filtering is tested in tests/console/live-feed.test.ts
  getSceneHistory: { surface: 'organization', expect: 'item', req: (s) => get(`/v1/scenes/${s.r.scene}/history?range=24h`), contains: (s) => s.r.scene },
  listSceneHistories: { surface: 'organization', expect: 'scan', req: () => get('/v1/scenes/history?limit=100'), contains: (s) => s.r.scene },
  streamOrganizationEvents: { surface: 'organization', expect: 'scan', req: () => get('/v1/events/stream') },
  getAutomation: { surface: 'organization', expect: 'scan', req: () => get('/v1/automation') },
  updateAutomation: { surface: 'organization', expect: 'scan', req: () => patch('/v1/automation', { incident_gap_s: 60 }) },
  pauseAutomation: { surface: 'organization', expect: 'scan', req: () => post('/v1/automation/incidents/pause') },
  resumeAutomation: { surface: 'organization', expect: 'scan', req: () => post('/v1/automation/incidents/resume') },
  // known people belong to the whole tenant, like responders: a key limited to
  // front_desk may read them but not change them or enrol their faces
  createPerson: { surface: 'any', expect: 'scan', req: () => post('/v1/people', { name: 'Probe person' }) },
  listPeople: { surface: 'any', expect: 'scan', req: () => get('/v1/people?limit=100'), contains: (s) => s.r.person },
  getPerson: { surface: 'any', expect: 'item', expectB: 'scan', req: (s) => get(`/v1/people/${s.r.person}`), contains: (s) => s.r.person },
  deletePerson: { surface: 'any', expect: 'item', expectB: 'ref', req: (s) => del(`/v1/people/${s.r.person}`) },
  enrolPersonFace: {
    surface: 'any',
    expect: 'item',
    expectB: 'ref',
    req: (s) => ({ method: 'POST', url: `/v1/people/${s.r.person}/faces`, payload: JPEG, headers: { 'content-type': 'image/jpeg' } }),
  },
  enrolPersonFaces: {
    surface: 'any',
    expect: 'item',
    expectB: 'ref',
    req: (s) => post(`/v1/people/${s.r.person}/faces/batch`, { photos: [JPEG.toString('base64')] }),
  },
};

const AUDIT_READS = new Set(['listAuditEntries', 'exportAuditTrail']);

function operationIds(): string[] {
  const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId: string }>>;
  };
  return Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
}

for (const dialect of DIALECTS) {
  describe(`access matrix over every operation (${dialect})`, () => {
    let t: TestApp;
    let org: Side;
    let home: Side;
    let orgB: Key;
    let homeB: Key;
    let frontDesk: Key;
    /** every id of organization A and household H1 (case a), and of north_gate (case b) */
    let ofOrgA: string[];
    let ofHomeH1: string[];
    let ofNorthGate: string[];

    const send = async (key: Key | null, r: Req) => {
      const res = await t.app.inject({
        method: r.method as 'GET',
        url: r.url,
        headers: { ...(key ? bearer(key) : {}), ...(r.headers ?? {}) },
        ...(r.payload !== undefined ? { payload: r.payload as string } : {}),
      });
      return { status: res.statusCode, body: res.body, type: String(res.headers['content-type'] ?? '') };
    };
    const must = async (key: Key, r: Req, status = 201) => {
      const res = await send(key, r);
      assert.equal(res.status, status, `${r.method} ${r.url}: ${res.body}`);
      return JSON.parse(res.body);
    };

    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
      const A = (await t.orgKey({ name: 'Matrix A' })) as Key;
      orgB = (await t.orgKey({ name: 'Matrix B' })) as Key;
      frontDesk = (await t.orgKey({ name: 'Matrix A', locations: ['front_desk'] })) as Key;

      // organization A: everything at north_gate, plus a stream at front_desk the restricted key may see
      const stream = await must(
        A,
        post('/v1/streams', { name: 'Gate cam', source_type: 'sandbox', source_url: 'sandbox://north_gate?scenario=lobby&seed=1', location: 'north_gate' }),
      );
      const webrtc = await must(
        A,
        post('/v1/streams', { name: 'Gate phone', source_type: 'webrtc', source_url: 'webrtc://gate-phone', location: 'north_gate' }),
      );
      await must(
        A,
        post('/v1/streams', { name: 'Desk cam', source_type: 'sandbox', source_url: 'sandbox://front_desk?scenario=lobby&seed=2', location: 'front_desk' }),
      );
      const webhook = await must(A, post('/v1/webhooks', { url: 'http://127.0.0.1:9/gate', locations: ['north_gate'] }));
      const rule = await must(
        A,
        post('/v1/alert-rules', { name: 'Anyone at the gate', condition: { type: 'person' }, locations: ['north_gate'], cooldown_s: 0 }),
      );
      const protocolType = await must(A, post('/v1/protocols', { name: 'matrix_drill', steps: ['call the gate'] }));
      const responder = await must(
        A,
        post('/v1/responders', { name: 'Gate guard', kind: 'person', escalation_level: 1, contact: { webhook_url: 'http://127.0.0.1:9/guard' } }),
      );
      const detection = await must(A, post('/v1/sandbox/detections', { stream_id: stream.id, type: 'person' }));
      await t.ctx.pipeline.drain();
      const [snapRow] = await t.ctx.database.db.selectFrom('detections').selectAll().where('id', '=', detection.id).execute();
      await t.ctx.snapshots.storeFor([snapRow as unknown as DetectionRecord], [JPEG]);
      const alerts = await must(A, get('/v1/alerts'), 200);
      assert.equal(alerts.data.length, 1, 'the rule fired on the detection');
      const incident = await must(A, post('/v1/incidents', { stream_id: stream.id, detection_ids: [detection.id] }));
      const run = await must(
        A,
        post(`/v1/incidents/${incident.id}/protocol`, { protocol_type: 'unauthorized_access', notify_responders: false, escalation_level: 1 }),
      );
      const deliveries = await must(A, get(`/v1/webhooks/${webhook.id}/deliveries`), 200);
      assert.ok(deliveries.data.length >= 2, 'alert, incident and protocol events reached the gate webhook');
      const gateKey = await must(A, post('/v1/keys', { name: 'gate kiosk', capabilities: ['streams:read'], locations: ['north_gate'] }));
      const person = await must(A, post('/v1/people', { name: 'Maria the cleaner', note: 'nights' }));
      const subscription = await must(A, post('/v1/notification-subscriptions', { channel: 'email', address: 'gate-desk@example.com' }));
      org = {
        kind: 'organization',
        owner: A,
        r: {
          stream: stream.id,
          scene: stream.scene_id,
          webhook: webhook.id,
          delivery: deliveries.data[0].id,
          rule: rule.id,
          alert: alerts.data[0].id,
          detection: detection.id,
          incident: incident.id,
          run: run.id,
          protocolType: protocolType.id,
          responder: responder.id,
          key: gateKey.id,
          webrtc: webrtc.id,
          person: person.id,
          subscription: subscription.id,
        },
      };

      // households H1 and H2 (test keys: a simulated home)
      const H1 = (await t.householdKey({ name: 'Matrix Home 1', mode: 'test' })) as Key;
      homeB = (await t.householdKey({ name: 'Matrix Home 2', mode: 'test' })) as Key;
      const hook = await must(H1, post('/v1/webhooks', { url: 'http://127.0.0.1:9/home' }));
      const said = await must(H1, post('/v1/conversations', { message: 'watch the front porch tonight' }), 200);
      assert.equal(said.actions[0].type, 'watch.created');
      const events = await must(H1, get('/v1/events'), 200);
      const homeDeliveries = await must(H1, get(`/v1/webhooks/${hook.id}/deliveries`), 200);
      const member = await must(H1, post('/v1/keys', { role: 'member', name: 'nanny' }));
      const nanny = await must(H1, post('/v1/people', { name: 'Ana the nanny' }));
      const homeSubscription = await must(H1, post('/v1/notification-subscriptions', { channel: 'email', address: 'home@example.com' }));
      await must(homeB, post('/v1/conversations', { message: 'watch the driveway tonight' }), 200);
      home = {
        kind: 'household',
        owner: H1,
        r: {
          webhook: hook.id,
          delivery: homeDeliveries.data[0].id,
          conversation: said.id,
          watch: said.actions[0].id,
          event: events.data[0].id,
          key: member.id,
          person: nanny.id,
          subscription: homeSubscription.id,
        },
      };

      ofOrgA = [...Object.values(org.r), A.id, A.tenant_id];
      ofHomeH1 = [...Object.values(home.r), H1.id, H1.tenant_id];
      ofNorthGate = [
        stream.id,
        stream.scene_id,
        webrtc.id,
        webhook.id,
        org.r.delivery,
        rule.id,
        alerts.data[0].id,
        detection.id,
        incident.id,
        run.id,
        gateKey.id,
        A.id,
      ];
    });
    after(() => t.close());

    test('every operation in openapi.json has a probe', () => {
      const ids = operationIds();
      assert.ok(ids.length >= 70, `openapi.json lists ${ids.length} operations`);
      assert.deepEqual(
        ids.filter((id) => !PROBES[id]),
        [],
        'operations without a probe',
      );
      assert.deepEqual(
        Object.keys(PROBES).filter((id) => !ids.includes(id)),
        [],
        'probes of operations that no longer exist',
      );
    });

    test('owners reach their own resources (so the refusals below mean refused, not missing)', async () => {
      for (const [id, p] of Object.entries(PROBES)) {
        if (!p.contains) continue;
        for (const side of p.surface === 'any' ? [org, home] : p.surface === 'household' ? [home] : [org]) {
          const res = await send(side.owner, p.req(side));
          assert.equal(res.status, 200, `${id} for the owner: ${res.body.slice(0, 300)}`);
          assert.ok(res.body.includes(p.contains(side)), `${id}: the owner sees ${p.contains(side)}`);
        }
      }
      const snap = await send(org.owner, PROBES.getDetectionSnapshot.req(org));
      assert.deepEqual([snap.status, snap.type], [200, 'image/jpeg']);
      const latest = await send(org.owner, PROBES.getStreamSnapshot.req(org));
      assert.deepEqual([latest.status, latest.type], [200, 'image/jpeg']);
    });

    test("(a) another tenant's key and (b) a key limited to another location never get the resource", async () => {
      const leaks: string[] = [];
      const counts = { operations: 0, calls: 0, a: 0, b: 0, bNotApplicable: 0 };
      const check = (
        label: string,
        expect: Expect,
        r: Req,
        res: { status: number; body: string; type: string },
        protectedIds: string[],
        protectName: boolean,
      ) => {
        counts.calls++;
        const requestText = `${r.url} ${JSON.stringify(r.payload ?? '')}`;
        const found = protectedIds.filter((id) => res.body.includes(id) && !requestText.includes(id));
        if (protectName && res.body.includes('north_gate') && !requestText.includes('north_gate')) found.push('north_gate');
        if (found.length) leaks.push(`${label}: ${res.status} carries ${found.join(', ')}`);
        if (res.status >= 500) leaks.push(`${label}: ${res.status} ${res.body.slice(0, 200)}`);
        if (res.status >= 400 && !res.type.startsWith('application/problem+json')) leaks.push(`${label}: ${res.status} is not problem+json`);
        if (expect === 'item' && res.status !== 404) leaks.push(`${label}: expected 404, got ${res.status} ${res.body.slice(0, 200)}`);
        if (expect === 'token' && res.status !== 401)
          leaks.push(`${label}: expected 401 (API keys are not publish tokens), got ${res.status} ${res.body.slice(0, 200)}`);
        if (expect === 'ref' && ![400, 403, 404].includes(res.status)) leaks.push(`${label}: expected a refusal, got ${res.status} ${res.body.slice(0, 200)}`);
      };

      for (const [id, p] of Object.entries(PROBES)) {
        counts.operations++;
        // (a) another tenant of the same kind, against the first tenant's resource
        const sides = p.surface === 'any' ? [org, home] : p.surface === 'household' ? [home] : [org];
        for (const side of sides) {
          const other = p.surface === 'public' ? null : side.kind === 'organization' ? orgB : homeB;
          const r = p.req(side);
          check(`(a) ${id} by another ${side.kind}`, p.expect, r, await send(other, r), side.kind === 'organization' ? ofOrgA : ofHomeH1, false);
          counts.a++;
        }
        // (b) organization A's key limited to front_desk, against north_gate resources
        if (p.surface === 'household') {
          // household routes refuse every organization key (403 wrong_surface): checked for leaks, counted apart
          const r = p.req(home);
          const res = await send(frontDesk, r);
          check(`(b) ${id} (household route)`, 'ref', r, res, [...ofHomeH1, ...ofNorthGate], true);
          if (res.status !== 403) leaks.push(`(b) ${id}: an organization key on a household route got ${res.status}`);
          counts.bNotApplicable++;
          continue;
        }
        const r = p.req(org);
        // an audit entry in the key's view names the key that acted (its id, never its secret): the
        // organization's unrestricted key created the front_desk stream, and saying so is what an audit trail is for
        const protectedIds = AUDIT_READS.has(id) ? ofNorthGate.filter((x) => x !== org.owner.id) : ofNorthGate;
        check(`(b) ${id} by a front_desk key`, p.expectB ?? p.expect, r, await send(frontDesk, r), protectedIds, true);
        counts.b++;
      }

      // the resources are all still there and unchanged for their owners
      assert.equal((await send(org.owner, get(`/v1/streams/${org.r.stream}`))).status, 200);
      assert.equal(JSON.parse((await send(org.owner, get(`/v1/incidents/${org.r.incident}`))).body).title === 'Probed', false);
      assert.equal(JSON.parse((await send(org.owner, get(`/v1/protocol-runs/${org.r.run}`))).body).status, 'active');
      assert.equal((await send(org.owner, get(`/v1/keys/${org.r.key}`))).status, 200);
      assert.equal(JSON.parse((await send(home.owner, get(`/v1/keys/${home.r.key}`))).body).revoked_at, null);
      assert.equal(JSON.parse((await send(home.owner, get(`/v1/watches/${home.r.watch}`))).body).status, 'active');

      console.log(
        `access matrix (${dialect}): ${counts.operations} operations; ${counts.calls} calls = ${counts.a} cross-tenant (a) + ${counts.b} cross-location (b) ` +
          `+ ${counts.bNotApplicable} household routes with a location key; leaks = ${leaks.length}`,
      );
      assert.deepEqual(leaks, []);
    });
  });
}
