/**
 * Routing said to the agent (docs/decisions.md, "Routing said to the agent"), through the real
 * NotificationService: each change is set with setRouting and the reply states the routing now in
 * force; a question or an unsure request changes nothing; and the router then holds back what the
 * routing says (quiet hours, a room left out, stopped), checked on its own decision for an event.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createECDH, randomBytes } from 'node:crypto';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp } from '../household/household-harness.ts';
import { NotificationRouterService } from '../../src/platform/notify/index.ts';

for (const dialect of DIALECTS) {
  test(`"notify me only between 11pm and 7am", "don't send me the garage ones", "stop the notifications", "send them again" (${dialect})`, async () => {
    const t = await createHouseholdTestApp({ dialect });
    try {
      const key = await t.householdKey({ name: 'Routing Home' });
      let conversation: string | undefined;
      const say = async (message: string) => {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/conversations',
          headers: bearer(key),
          payload: { message, ...(conversation ? { conversation_id: conversation } : {}) },
        });
        assert.equal(res.statusCode < 300, true, res.body);
        const body = res.json();
        conversation = body.id ?? conversation;
        return body as { reply: string; actions: Array<{ type: string }> };
      };
      const prefs = async () => (await t.app.inject({ method: 'GET', url: '/v1/notification-preferences', headers: bearer(key) })).json();
      await say('hello'); // provisions the simulated home and opens the conversation

      // a device to be told: a Web Push subscription (the router decides for it)
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const sub = await t.app.inject({
        method: 'POST',
        url: '/v1/notification-subscriptions',
        headers: bearer(key),
        payload: {
          channel: 'push',
          endpoint: 'https://127.0.0.1:9/push/device-1',
          keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
        },
      });
      assert.equal(sub.statusCode, 201, sub.body);
      const router = new NotificationRouterService({ database: t.ctx.database, publicBaseUrl: 'http://vigil.test' });
      let n = 0;
      const told = async (room: string, atIso: string) => {
        n++;
        const targets = await t.ctx.database.db.transaction().execute((trx) =>
          router.routeIn(trx, {
            tenantId: key.tenant_id,
            kind: 'watch.observation',
            eventId: `evt_test_${n}`,
            location: room.replace(/ /g, '_'),
            payload: { watch_id: `wat_test_${n}`, summary: `The ${room} saw a person`, room },
            at: Date.parse(atIso),
          }),
        );
        return targets.length;
      };
      // Lisbon is UTC+0 in November: 01:00Z is 1am there, 12:00Z noon
      assert.equal(await told('driveway', '2026-11-22T12:00:00Z'), 1, 'with no routing set, everything is sent');

      const hours = await say('notify me only between 11pm and 7am');
      assert.deepEqual(
        hours.actions.map((a) => a.type),
        ['notification_preferences.set'],
        hours.reply,
      );
      assert.equal(hours.reply, 'Your notifications now come only between 11pm and 7am (quiet from 7am to 11pm), for everything.');
      assert.deepEqual((await prefs()).quiet_hours, { from: '07:00', to: '23:00' });
      assert.equal(await told('driveway', '2026-11-22T12:00:00Z'), 0, 'noon is in the quiet hours');
      assert.equal(await told('driveway', '2026-11-22T01:00:00Z'), 1, '1am is not');

      const garage = await say("don't send me the garage ones");
      assert.equal(garage.reply, 'Your notifications now come only between 11pm and 7am (quiet from 7am to 11pm), for everything but the garage.');
      assert.deepEqual((await prefs()).exclude.rooms, ['garage']);
      assert.equal(await told('garage', '2026-11-22T01:00:00Z'), 0, 'the garage is left out');

      // a question and an unsure request change nothing
      const before = await prefs();
      const q = await say('are my notifications on?');
      assert.deepEqual(q.actions, []);
      assert.match(q.reply, /haven't changed your notifications/);
      const unsure = await say('notify me only between 11 and 7');
      assert.deepEqual(unsure.actions, []);
      assert.match(unsure.reply, /morning or the evening/);
      assert.deepEqual(await prefs(), before);

      const stop = await say('stop the notifications');
      assert.equal(
        stop.reply,
        'Your notifications are stopped: nothing is sent until you ask me to send them again. Then they come only between 11pm and 7am (quiet from 7am to 11pm), for everything but the garage.',
      );
      assert.equal((await prefs()).paused, true);
      assert.equal(await told('driveway', '2026-11-22T01:00:00Z'), 0, 'stopped: nothing is sent');

      const again = await say('send them again');
      assert.deepEqual(
        again.actions.map((a) => a.type),
        ['notification_preferences.set'],
        again.reply,
      );
      assert.match(again.reply, /^Your notifications now come only between 11pm and 7am/);
      assert.equal((await prefs()).paused, false);
      assert.equal(await told('driveway', '2026-11-22T01:00:00Z'), 1);

      const garageBack = await say('send me the garage ones again');
      assert.equal(garageBack.reply, 'Your notifications now come only between 11pm and 7am (quiet from 7am to 11pm), for everything.');
      const anyTime = await say('notify me at any time again');
      assert.equal(anyTime.reply, 'Your notifications now come at any hour, for everything.');
      assert.deepEqual(await prefs(), { ...(await prefs()), paused: false, quiet_hours: null, exclude: { rooms: [], sensors: [], watches: [] } });
      const audit = await t.ctx.database.db
        .selectFrom('audit_log')
        .select(['action'])
        .where('action', '=', 'notification_preferences.set')
        .where('tenant_id', '=', key.tenant_id)
        .execute();
      assert.equal(audit.length, 6, 'one audited change per routing request that acted');
    } finally {
      await t.close();
    }
  });
}
