import { ManualClock } from '../../src/platform/time/clock.ts';
import type { StreamRef } from '../../src/org/pipeline/detection-pipeline.ts';
import type { DetectionInput } from '../../src/platform/kinds/index.ts';
import { bearer, createTestApp, type DialectName, type TestApp } from '../helpers/harness.ts';

/** Friday 2026-11-20 12:00 UTC: business hours by default (Mon–Fri 08:00–18:00 in the scene's zone, UTC). */
export const FRIDAY_NOON = Date.parse('2026-11-20T12:00:00.000Z');

export interface OperationsFixture {
  t: TestApp;
  clock: ManualClock;
  key: { key: string; tenant_id: string };
  /** a sandbox stream at north_lobby of `key`'s organization */
  lobby: StreamRef;
  request(
    method: string,
    url: string,
    body?: unknown,
    opts?: { key?: { key: string }; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
  addStream(location: string, k?: { key: string }): Promise<StreamRef>;
  /** hand-fed detections through the real pipeline; resolves once durable */
  ingest(stream: StreamRef, detections: Array<Partial<DetectionInput> & Pick<DetectionInput, 'type'>>): Promise<void>;
  /** outbox events of a kind for the key's organization, oldest first, parsed bodies */
  outbox(kind: string, tenantId?: string): Promise<Array<Record<string, any>>>;
  /** another organization with its own key and a stream at `location` */
  newOrg(location?: string): Promise<{ key: { key: string; tenant_id: string }; stream: StreamRef }>;
  /** subscribes a loopback endpoint to every organization event so the outbox records them */
  subscribe(k?: { key: string }): Promise<void>;
}

export async function createOperationsFixture(dialect: DialectName, start = FRIDAY_NOON): Promise<OperationsFixture> {
  const clock = new ManualClock(start);
  const t = await createTestApp({ dialect, clock, config: { webhookAllowPrivate: true } });
  const key = await t.orgKey();
  const request: OperationsFixture['request'] = async (method, url, body, opts = {}) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(opts.key ?? key), ...(opts.headers ?? {}) },
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };
  const addStream = async (location: string, k: { key: string } = key): Promise<StreamRef> => {
    const res = await request(
      'POST',
      '/v1/streams',
      { name: `${location} cam`, source_type: 'sandbox', source_url: `sandbox://${location}?scenario=lobby&seed=1`, location },
      { key: k },
    );
    if (res.status !== 201) throw new Error(`stream: ${JSON.stringify(res.body)}`);
    return { id: res.body.id, tenant_id: (k as { tenant_id?: string }).tenant_id ?? key.tenant_id, scene_id: res.body.scene_id, location };
  };
  const lobby = await addStream('north_lobby');
  return {
    t,
    clock,
    key,
    lobby,
    request,
    addStream,
    async ingest(stream, detections) {
      await t.ctx.pipeline.ingest(
        stream,
        detections.map((d) => ({ confidence: 0.9, at: clock.now(), ...d }) as DetectionInput),
      );
    },
    async newOrg(location = 'north_lobby') {
      const k = await t.orgKey();
      return { key: k, stream: await addStream(location, k) };
    },
    async outbox(kind, tenantId = key.tenant_id) {
      const rows = await t.ctx.database.db
        .selectFrom('webhook_events')
        .select(['body'])
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', kind)
        .orderBy('id', 'asc')
        .execute();
      return rows.map((r) => JSON.parse(r.body) as Record<string, any>);
    },
    async subscribe(k = key) {
      const res = await request('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hooks' }, { key: k });
      if (res.status !== 201) throw new Error(`webhook: ${JSON.stringify(res.body)}`);
    },
  };
}
