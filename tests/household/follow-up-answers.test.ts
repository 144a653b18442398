/**
 * Follow-ups through the conversation API (docs/decisions.md, "Before round T: follow-ups"): an answer to the agent's
 * question completes the request asked about, an answer that does not fit asks again and changes nothing, a new request
 * in place of an answer is a new request, and "what did you just do?" answers from the conversation and changes nothing.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { DIALECTS } from '../helpers/harness.ts';
import { bearer, createHouseholdTestApp, type HouseholdTestApp } from './household-harness.ts';

type Reply = { id: string; reply: string; actions: { type: string; starts_at?: string; ends_at?: string; subject?: string }[] };

/** A message said to the household's conversation API, in the conversation given if any. */
function sayTo(t: HouseholdTestApp, key: Awaited<ReturnType<HouseholdTestApp['householdKey']>>) {
  return async (message: string, conversation_id?: string): Promise<Reply> =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/v1/conversations',
        headers: bearer(key),
        payload: { message, ...(conversation_id ? { conversation_id } : {}) },
      })
    ).json();
}

for (const dialect of DIALECTS) {
  describe(`follow-ups answer the question asked (${dialect})`, () => {
    let t: HouseholdTestApp;
    before(async () => {
      // (12:00 in Lisbon, UTC+0 in November)
      t = await createHouseholdTestApp({ dialect });
    });
    after(() => t.close());

    test('"in the morning I mean" after the am/pm question makes the watch asked about, in the morning', async () => {
      const key = await t.householdKey();
      const say = sayTo(t, key);
      const asked = await say('watch the driveway tomorrow from 2 to 5');
      assert.deepEqual(asked.actions, [], asked.reply);
      assert.match(asked.reply, /am or pm/, asked.reply);
      // (an answer that does not fit asks again, and changes nothing)
      const again = await say('the wee small morning hours', asked.id);
      assert.deepEqual(again.actions, [], again.reply);
      assert.equal(again.reply, asked.reply);
      const answered = await say('in the morning I mean', asked.id);
      assert.deepEqual(
        answered.actions.map((a) => [a.type, a.starts_at, a.ends_at]),
        [['watch.created', '2026-11-22T02:00:00.000Z', '2026-11-22T05:00:00.000Z']],
        answered.reply,
      );
      // ("what did you just do?": answered from the conversation, nothing changed)
      const recalled = await say('what did you just do?', asked.id);
      assert.deepEqual(recalled.actions, [], recalled.reply);
      assert.match(recalled.reply, /started watching the driveway/, recalled.reply);
      const watches = (await t.app.inject({ url: '/v1/watches', headers: bearer(key) })).json();
      assert.equal(watches.data.length, 1, JSON.stringify(watches.data));
    });

    test('a new request in place of the answer is a new request', async () => {
      const key = await t.householdKey();
      const say = sayTo(t, key);
      const asked = await say('watch the driveway tomorrow from 2 to 5');
      assert.deepEqual(asked.actions, [], asked.reply);
      const other = await say('mute the nursery camera', asked.id);
      assert.deepEqual(
        other.actions.map((a) => a.type),
        ['sensor.muted'],
        other.reply,
      );
    });
  });
}
