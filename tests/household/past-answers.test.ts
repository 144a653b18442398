/**
 * Honest answers about the past (docs/decisions.md, "Household: honest past answers"): "what
 * happened in the backyard last night" and "has anyone been at the front door today" come from
 * every recorded detection of the place's sensors, not only watch events, and say their coverage:
 * from when data exists, and which sensor was muted or left alone for which part of the period,
 * never "nothing happened" for a sensor that was not looking.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp } from './household-harness.ts';
import { streamRepository } from '../../src/org/streams/stream.repository.ts';
import type { DetectionInput } from '../../src/platform/kinds/index.ts';

/** Lisbon is UTC+0 in November: local wall clock = UTC */
const at = (day: string, time: string) => Date.parse(`2026-11-${day}T${time}:00.000Z`);

for (const dialect of DIALECTS) {
  test(`past answers come from every detection and say their coverage (${dialect})`, async () => {
    const t = await createHouseholdTestApp({ dialect, start: '2026-11-21T12:00:00.000Z' });
    try {
      const key = await t.householdKey({ name: 'Past Home', mode: 'live' });
      const say = async (message: string) => {
        const res = await t.app.inject({ method: 'POST', url: '/v1/conversations', headers: bearer(key), payload: { message } });
        assert.equal(res.statusCode, 200, res.body);
        return res.json();
      };
      const added = async (message: string) => {
        const body = await say(message);
        assert.equal(body.actions[0]?.type, 'sensor.added', body.reply);
        const row = await t.ctx.database.db.selectFrom('streams').selectAll().where('id', '=', body.actions[0].id).executeTakeFirstOrThrow();
        await streamRepository.update(t.ctx.database.db, row.id, { status: 'live' });
        return row;
      };
      const backyard = await added('add a camera in the backyard at rtsp://10.0.0.5/backyard');
      const frontDoor = await added('add a camera in the front door at rtsp://10.0.0.6/door');
      const garden = await added('add a camera in the garden at rtsp://10.0.0.7/garden');
      const ingest = async (s: typeof backyard, when: number, inputs: Array<Partial<DetectionInput> & Pick<DetectionInput, 'type'>>) => {
        if (when > t.clock.now()) await t.clock.advance(when - t.clock.now());
        await t.ctx.pipeline.ingest(
          { id: s.id, tenant_id: s.tenant_id, scene_id: s.scene_id, location: s.location },
          inputs.map((d) => ({ confidence: 0.9, at: when, subtype: null, value: null, count: null, track_id: null, dwell_s: null, ...d }) as DetectionInput),
        );
        await t.ctx.pipeline.drain();
      };

      // the front door and the garden have readings from the afternoon; the backyard only from 23:00
      await ingest(frontDoor, at('21', '15:00'), [{ type: 'person_count', value: 0 }]);
      await ingest(garden, at('21', '15:00'), [{ type: 'person_count', value: 0 }]);
      await ingest(frontDoor, at('21', '20:00'), [
        { type: 'person', track_id: 'postman' },
        { type: 'person_count', value: 1 },
      ]);
      await ingest(backyard, at('21', '23:00'), [{ type: 'person_count', value: 0 }]);
      await ingest(backyard, at('21', '23:10'), [
        { type: 'person', track_id: 'p1', subtype: 'unrecognized' },
        { type: 'person_count', value: 1 },
      ]);
      await ingest(backyard, at('21', '23:11'), [{ type: 'person', track_id: 'p1', subtype: 'unrecognized' }]);
      await ingest(backyard, at('21', '23:20'), [{ type: 'person_count', value: 0 }]);
      // the garden camera is muted at 01:00 and sees nothing of the night after that
      await t.clock.advance(at('22', '01:00') - t.clock.now());
      assert.equal((await say('mute the garden camera')).actions[0]?.type, 'sensor.muted');
      await t.clock.advance(at('22', '09:00') - t.clock.now());

      // a person seen by the camera, with no watch set: never "nothing happened"
      const night = await say('what happened in the backyard last night?');
      const listed = night.actions.find((a: { type: string }) => a.type === 'events.listed');
      assert.ok(listed, JSON.stringify(night));
      assert.ok(listed.sightings > 0, JSON.stringify(listed));
      assert.ok(listed.until, 'a night that is over has an end');
      assert.doesNotMatch(night.reply, /[Nn]othing/);
      assert.match(
        night.reply,
        /^From Nov 21 18:00 to 06:00 in the backyard: the backyard camera saw a person once \(at Nov 21 23:10; not recognized\)\./,
        night.reply,
      );
      assert.match(night.reply, /I have readings since Nov 21 23:00\./, night.reply);

      // the front door: nobody today, and the camera was looking all day, so that is said plainly
      const today = await say('has anyone been at the front door today?');
      const todayListed = today.actions.find((a: { type: string }) => a.type === 'events.listed');
      assert.ok(todayListed, JSON.stringify(today));
      assert.match(today.reply, /I saw no one in the front door since 00:00\./, today.reply);
      assert.doesNotMatch(today.reply, /readings only|muted|left alone/);
      // yesterday evening's postman is there when the question covers it
      assert.match((await say('has anyone been at the front door since yesterday?')).reply, /the front door camera saw a person once \(at Nov 21 20:00\)/);

      // the garden: muted from 01:00 on; that part is said as not looking, not as "nothing"
      const gardenNight = await say('what happened in the garden last night?');
      assert.match(
        gardenNight.reply,
        /^I saw no activity in the garden from Nov 21 18:00 to 01:00, the only part of that time I was looking\./,
        gardenNight.reply,
      );
      assert.match(gardenNight.reply, /garden camera was muted from (Nov 22 )?01:00, so I can't say what happened there after that/i, gardenNight.reply);
      const gardenToday = await say('anything in the garden today?');
      assert.match(
        gardenToday.reply,
        /^I saw no activity in the garden from 00:00 to 01:00, the only part of that time I was looking\. The garden camera was muted from 01:00, so I can't say what happened there after that\.$/,
        gardenToday.reply,
      );
      // a period wholly inside the mute: nothing is claimed at all
      const gardenMorning = await say('anything in the garden since 8am?');
      assert.match(gardenMorning.reply, /^I can't say what happened in the garden since 08:00: no sensor there was looking\./, gardenMorning.reply);
      assert.match(gardenMorning.reply, /was muted all that time/, gardenMorning.reply);

      // left alone: nothing of it is shown, and the reply says why
      await say('leave the backyard alone');
      const after = await say('what happened in the backyard last night?');
      assert.doesNotMatch(after.reply, /saw a person/, after.reply);
      assert.match(after.reply, /leave .*alone|left alone/i, after.reply);
    } finally {
      await t.close();
    }
  });
}
