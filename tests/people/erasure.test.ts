/**
 * Erasure removes the person from every read: after DELETE /v1/people/{id}, alerts, scene reads
 * and answers, webhook payloads not yet delivered, the audit list and export (redacted, still
 * verifiable) and the snapshots of frames recognized as them no longer name or show them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { DIALECTS, bearer, createTestApp, type TestApp } from '../helpers/harness.ts';
import { verifyExportOffline } from '../audit/offline-verifier.ts';

for (const dialect of DIALECTS) {
  describe(`erasure of a known person (${dialect})`, () => {
    let t: TestApp;
    let key: { key: string; tenant_id: string; id: string };
    before(async () => {
      t = await createTestApp({ dialect, config: { webhookAllowPrivate: true } });
      key = await t.orgKey();
    });
    after(() => t.close());

    const call = async (method: string, url: string, payload?: unknown) => {
      const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload === undefined ? {} : { payload: payload as object }) });
      return { status: res.statusCode, body: res.body, json: () => res.json() };
    };

    test('after DELETE /v1/people/{id} no read names the person, the audit chain verifies, and their frames are gone', async () => {
      const stream = (
        await call('POST', '/v1/streams', { name: 'Gate', source_type: 'sandbox', source_url: 'sandbox://gate?scenario=lobby&seed=3', location: 'north_gate' })
      ).json();
      // a webhook endpoint nobody answers: its deliveries stay pending or retrying
      assert.equal((await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/hook' })).status, 201);
      assert.equal((await call('POST', '/v1/alert-rules', { name: 'anyone at the gate', condition: { type: 'person' } })).status, 201);
      const person = (await call('POST', '/v1/people', { name: 'Mia Santos', note: 'night cleaner, lives on Rua Augusta' })).json();
      const other = (await call('POST', '/v1/people', { name: 'Rui Costa' })).json();
      const seen = (
        await call('POST', '/v1/sandbox/detections', { stream_id: stream.id, type: 'person', subtype: 'recognized', person_id: person.id, confidence: 0.93 })
      ).json();
      const seenOther = (
        await call('POST', '/v1/sandbox/detections', { stream_id: stream.id, type: 'person', subtype: 'recognized', person_id: other.id, confidence: 0.91 })
      ).json();
      assert.ok(seen.id && seenOther.id, JSON.stringify(seen));
      await t.ctx.pipeline.drain();
      // the frame the face was recognized in
      const jpeg = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#808080' } })
        .jpeg()
        .toBuffer();
      const rec = (id: string) => t.ctx.database.db.selectFrom('detections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const [r1, r2] = [await rec(seen.id), await rec(seenOther.id)];
      await t.ctx.snapshots.storeFor([{ ...r1, at: Number(r1.at) } as never, { ...r2, at: Number(r2.at) } as never], [jpeg, Buffer.from(jpeg)]);
      assert.equal((await call('GET', `/v1/detections/${seen.id}/snapshot`)).status, 200);

      // before: the person is named in these reads
      const reads = async () => ({
        alerts: (await call('GET', '/v1/alerts?limit=100')).body,
        scene: (await call('GET', `/v1/scenes/${stream.scene_id}`)).body,
        answer: (await call('POST', `/v1/scenes/${stream.scene_id}/query`, { query: 'who was at the gate today?' })).body,
        audit: (await call('GET', '/v1/audit?limit=100')).body,
        undelivered: (
          await t.ctx.database.db
            .selectFrom('webhook_events as e')
            .select('e.body')
            .where('e.tenant_id', '=', key.tenant_id)
            .where((eb) =>
              eb.exists(
                eb.selectFrom('webhook_deliveries as d').select('d.id').whereRef('d.event_id', '=', 'e.id').where('d.status', 'in', ['pending', 'retrying']),
              ),
            )
            .execute()
        )
          .map((r) => r.body)
          .join('\n'),
      });
      // the alert and the webhook deliveries are written after the detection's commit: wait for them
      let beforeReads = await reads();
      for (let i = 0; i < 100 && !(beforeReads.alerts.includes(person.id) && beforeReads.undelivered.includes(person.id)); i++) {
        await new Promise((r) => setTimeout(r, 50));
        beforeReads = await reads();
      }
      assert.ok(beforeReads.alerts.includes(person.id), 'the alert names the person before');
      assert.ok(beforeReads.undelivered.includes(person.id), 'a pending webhook payload names the person before');
      assert.ok(beforeReads.audit.includes('Rua Augusta'), 'the audit list holds the note before');

      const del = await call('DELETE', `/v1/people/${person.id}`);
      assert.equal(del.status, 200, del.body);

      const afterReads = await reads();
      for (const [name, text] of Object.entries(afterReads)) {
        assert.ok(!text.includes('Mia Santos') && !text.includes('Rua Augusta'), `${name} still holds the name or note`);
        // the deletion entry itself keeps the id (what was deleted), nothing else does
        if (name !== 'audit') assert.ok(!text.includes(person.id), `${name} still names the person`);
      }
      const auditEntries = JSON.parse(afterReads.audit).data as Array<{ action: string; resource: { id: string }; data: unknown }>;
      for (const e of auditEntries) {
        if (JSON.stringify(e.data ?? null).includes(person.id)) assert.fail(`${e.action} still names the person in its data`);
      }
      assert.ok(
        auditEntries.some((e) => e.action === 'person.created' && e.resource.id === person.id && e.data === null),
        'the creation entry is there, its content erased',
      );
      // the other person is untouched
      assert.equal((await rec(seenOther.id)).person_id, other.id);
      assert.equal((await call('GET', `/v1/detections/${seenOther.id}/snapshot`)).status, 200);
      // the frame with the face is gone
      assert.equal((await call('GET', `/v1/detections/${seen.id}/snapshot`)).status, 404);

      // the chain still verifies, on the server and offline from the export, which names them nowhere
      const v = (await call('GET', '/v1/audit/verify')).json();
      assert.equal(v.valid, true, JSON.stringify(v));
      const exported = (await call('GET', '/v1/audit/export')).body;
      assert.ok(!exported.includes('Mia Santos') && !exported.includes('Rua Augusta'));
      assert.equal(verifyExportOffline(exported).valid, true);
      // the audit log is still append-only for anything but erasure
      await assert.rejects(t.ctx.database.db.updateTable('audit_log').set({ data: '{}' }).where('tenant_id', '=', key.tenant_id).execute());
      await assert.rejects(
        t.ctx.database.db.updateTable('audit_log').set({ data: null, salt: null, hash: 'x' }).where('tenant_id', '=', key.tenant_id).execute(),
      );
      await assert.rejects(t.ctx.database.db.deleteFrom('audit_log').where('tenant_id', '=', key.tenant_id).execute());
    });
  });
}
