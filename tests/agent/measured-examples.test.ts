/**
 * Every household example the agent was measured on, and the behaviours asked of it (docs/decisions.md,
 * 'Household language understanding'), as a conversation with the offline planner over a simulated household. Times
 * are read as the home's wall clock (Lisbon).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { runPlan } from '../../src/home/agent/plan-executor.ts';
import type { Plan } from '../../src/home/agent/plan.ts';
import { formatLocal } from '../../src/platform/time/zoned-time.ts';
import { loadContexts } from './corpus-cases.ts';
import { HouseholdSimulator } from './household-simulator.ts';

const contexts = loadContexts();
const CHANGES = ['create_watch', 'update_watch', 'stand_down_watch', 'mute_sensor', 'unmute_sensor', 'set_boundary', 'clear_boundary'];

async function say(home: HouseholdSimulator, message: string): Promise<{ plan: Plan; reply: string }> {
  const plan = planOffline(message, home.ctx);
  const result = await runPlan(plan, home);
  home.recordTurn(message, result.actions);
  return { plan, reply: result.reply };
}

function tools(plan: Plan): string[] {
  return plan.calls.map((c) => c.tool);
}

function local(iso: unknown): string {
  return formatLocal(Date.parse(String(iso)), 'Europe/Lisbon');
}

test('"no need to keep an eye on the porch anymore thx" stands the porch watch down, no new watch', async () => {
  const home = new HouseholdSimulator(contexts.lisbon_watching);
  const { plan } = await say(home, 'no need to keep an eye on the porch anymore thx');
  assert.deepEqual(tools(plan), ['stand_down_watch']);
  assert.equal(plan.calls[0].args.watch_id, 'wat_porch');
});

test('"stop watching the garage but keep the driveway" stands down the garage only', async () => {
  const home = new HouseholdSimulator(contexts.lisbon_watching);
  const { plan, reply } = await say(home, 'stop watching the garage but keep the driveway');
  assert.deepEqual(tools(plan), ['stand_down_watch']);
  assert.equal(plan.calls[0].args.watch_id, 'wat_garage');
  assert.ok(
    home.ctx.watches.some((w) => w.id === 'wat_driveway'),
    'the driveway watch stays',
  );
  assert.match(reply, /still watching the driveway/);
});

test('"leave the nursery alone but watch everything else tonight": a nursery boundary and a watch on the rest', async () => {
  const home = new HouseholdSimulator(contexts.lisbon);
  const { plan, reply } = await say(home, 'leave the nursery alone but watch everything else tonight');
  assert.deepEqual(tools(plan), ['set_boundary', 'create_watch']);
  assert.deepEqual(plan.calls[0].args, { room: 'nursery' });
  const ids = plan.calls[1].args.sensor_ids as string[];
  assert.ok(!ids.includes('sen_nursery_cam'));
  assert.equal(ids.length, 6);
  assert.equal(local(plan.calls[1].args.starts_at), '2026-11-21T17:21');
  assert.doesNotMatch(reply, /the the/);
});

test('"don\'t look in the kids\' room" sets the boundary on the nursery, not the living room', async () => {
  const { plan } = await say(new HouseholdSimulator(contexts.lisbon), "don't look in the kids' room");
  assert.deepEqual(
    plan.calls.map((c) => c.args),
    [{ room: 'nursery' }],
  );
});

test('"watch the baby\'s room overnight" watches the nursery', async () => {
  const { plan } = await say(new HouseholdSimulator(contexts.lisbon), "watch the baby's room overnight");
  assert.deepEqual(tools(plan), ['create_watch']);
  assert.deepEqual(plan.calls[0].args.sensor_ids, ['sen_nursery_cam']);
});

test('"can you keep an eye on the back door tonight" at 00:34 watches the night in progress', async () => {
  const { plan, reply } = await say(new HouseholdSimulator(contexts.lisbon_night), 'can you keep an eye on the back door tonight');
  assert.deepEqual(tools(plan), ['create_watch']);
  assert.equal(local(plan.calls[0].args.starts_at), '2026-11-22T00:34');
  assert.equal(local(plan.calls[0].args.ends_at), '2026-11-22T07:28');
  assert.match(reply, /from now/);
});

test('"watch the garage between 11pm and 6am" ends at 06:00, not at sunrise', async () => {
  const { plan } = await say(new HouseholdSimulator(contexts.lisbon), 'watch the garage between 11pm and 6am');
  assert.equal(local(plan.calls[0].args.starts_at), '2026-11-21T23:00');
  assert.equal(local(plan.calls[0].args.ends_at), '2026-11-22T06:00');
});

test('follow-ups answer or edit the watch, never duplicate it', async () => {
  const home = new HouseholdSimulator(contexts.lisbon);
  await say(home, 'watch the garage tonight');
  assert.equal(home.ctx.watches.length, 1);

  const when = await say(home, 'when does it start?');
  assert.deepEqual(tools(when.plan), [], 'a question changes nothing');
  assert.match(when.reply, /17:21/);

  const edit = await say(home, 'actually only till 6 in the morning');
  assert.deepEqual(tools(edit.plan), ['update_watch']);
  assert.equal(local(edit.plan.calls[0].args.ends_at), '2026-11-22T06:00');

  const start = await say(home, 'can it start at 9pm instead?');
  assert.deepEqual(tools(start.plan), ['update_watch']);
  assert.equal(local(start.plan.calls[0].args.starts_at), '2026-11-21T21:00');
  assert.equal(home.ctx.watches.length, 1, 'still one watch');

  const same = await say(home, 'same for the back door');
  assert.deepEqual(tools(same.plan), ['create_watch']);
  assert.deepEqual(same.plan.calls[0].args.sensor_ids, ['sen_back_door']);

  const drop = await say(home, 'drop the garage');
  assert.deepEqual(tools(drop.plan), ['stand_down_watch']);
  assert.deepEqual(
    home.ctx.watches.map((w) => w.subject),
    ['back door contact'],
  );
});

test('"till friday evening" and "until the 30th" are understood, not a silent 24 h watch', async () => {
  const friday = await say(new HouseholdSimulator(contexts.lisbon), 'watch the porch till friday evening');
  assert.equal(local(friday.plan.calls[0].args.ends_at), '2026-11-27T18:00');
  const thirtieth = await say(new HouseholdSimulator(contexts.lisbon), 'watch the garage until the 30th');
  assert.equal(local(thirtieth.plan.calls[0].args.ends_at), '2026-12-01T00:00');
  assert.match(thirtieth.reply, /Dec 1|1 Dec|Tue/);
  const holiday = await say(new HouseholdSimulator(contexts.lisbon), "watch the garden while we're on holiday, back on the 30th");
  assert.deepEqual(holiday.plan.calls[0].args.sensor_ids, ['sen_backyard_cam']);
  assert.equal(local(holiday.plan.calls[0].args.ends_at), '2026-12-01T00:00');
});

test('a watch with no end says it chose 24 hours; a watch with no time at all asks when', async () => {
  // (changed with round C: "watch the garage" alone is asked about, as the blind sets expect — see
  // docs/decisions.md, "Round C household: general causes"; a watch for an event keeps the stated default)
  const { reply } = await say(new HouseholdSimulator(contexts.lisbon), 'tell me if anyone is in the garage');
  assert.match(reply, /for the next 24 hours/);
  const bare = await say(new HouseholdSimulator(contexts.lisbon), 'watch the garage');
  assert.equal(bare.plan.calls.length, 0);
  assert.match(bare.plan.clarification ?? '', /When should I watch the garage/);
});

test('a time in the past is a question, not a watch that never runs', async () => {
  const { plan } = await say(new HouseholdSimulator(contexts.lisbon), 'watch the garage yesterday');
  assert.deepEqual(tools(plan), []);
  assert.ok(plan.clarification);
});

test('"what happened while I was out this afternoon" lists the afternoon\'s events; no "There\'s no afternoon"', async () => {
  const { plan, reply } = await say(new HouseholdSimulator(contexts.lisbon), 'what happened while I was out this afternoon');
  assert.deepEqual(tools(plan), ['list_events']);
  assert.equal(local(plan.calls[0].args.since), '2026-11-21T12:00');
  assert.doesNotMatch(reply, /no afternoon/i);
});

test('an unknown noun is never a room: no "There\'s no guests in your home"', async () => {
  const { reply } = await say(new HouseholdSimulator(contexts.lisbon), 'any guests in the driveway today?');
  assert.doesNotMatch(reply, /no guests/i);
  const attic = await say(new HouseholdSimulator(contexts.lisbon), 'watch the attic tonight');
  assert.deepEqual(tools(attic.plan), []);
  assert.match(attic.reply, /no attic/);
});

test('replies have no doubled articles: "the whole home"', async () => {
  const { reply } = await say(new HouseholdSimulator(contexts.lisbon), 'watch the whole house tonight');
  assert.match(reply, /watching the whole home/);
  assert.doesNotMatch(reply, /the the/);
});

test('rooms by meaning: drive, garden, lounge, sitting room, front room, front door', async () => {
  const cases: [string, string][] = [
    ['watch the drive tonight', 'sen_driveway_cam'],
    ['keep an eye on the garden tonight', 'sen_backyard_cam'],
    ['watch the lounge tonight', 'sen_living_cam'],
    ['watch the sitting room tonight', 'sen_living_cam'],
    ['watch the front room tonight', 'sen_living_cam'],
    ['watch the front door tonight', 'sen_porch_cam'],
  ];
  for (const [message, sensor] of cases) {
    const { plan } = await say(new HouseholdSimulator(contexts.lisbon), message);
    assert.deepEqual(
      plan.calls.map((c) => c.args.sensor_ids),
      [[sensor]],
      message,
    );
  }
});

test('two close candidates: "the door" asks which, naming both', async () => {
  const { plan, reply } = await say(new HouseholdSimulator(contexts.lisbon), 'watch the door tonight');
  assert.deepEqual(tools(plan), []);
  assert.match(reply, /back door/);
  assert.match(reply, /front porch/);
});

test('state questions are answered and change nothing', async () => {
  const home = new HouseholdSimulator(contexts.lisbon_private);
  const muted = await say(home, 'is the living room camera muted?');
  assert.deepEqual(tools(muted.plan), []);
  assert.match(muted.reply, /^Yes, the living room camera is muted/);
  const notMuted = await say(home, 'is the garage motion muted?');
  assert.match(notMuted.reply, /^No/);
  const watching = await say(home, 'what are you watching?');
  assert.deepEqual(tools(watching.plan), ['list_watches']);
  const open = await say(home, 'is the back door open?');
  assert.deepEqual(
    open.plan.calls.map((c) => [c.tool, c.args]),
    [['describe_scene', { sensor_id: 'sen_back_door' }]],
  );
  const watched = await say(home, 'are you watching the garage?');
  assert.deepEqual(tools(watched.plan), []);
  assert.match(watched.reply, /^Yes/);
  for (const turn of [muted, notMuted, watching, open, watched]) assert.ok(!turn.plan.calls.some((c) => CHANGES.includes(c.tool)));
});

test('questions about the past list recorded events with a sensible start', async () => {
  const backyard = await say(new HouseholdSimulator(contexts.lisbon), "who's been in the backyard in the last hour?");
  assert.deepEqual(
    backyard.plan.calls.map((c) => c.tool),
    ['list_events'],
  );
  assert.equal(backyard.plan.calls[0].args.room, 'backyard');
  assert.equal(local(backyard.plan.calls[0].args.since), '2026-11-21T16:00');
  const work = await say(new HouseholdSimulator(contexts.lisbon), 'did anyone come by while I was at work?');
  assert.equal(local(work.plan.calls[0].args.since), '2026-11-21T09:00');
  const going = await say(new HouseholdSimulator(contexts.lisbon), "what's been going on?");
  assert.deepEqual(tools(going.plan), ['list_events']);
});

test('lifting a boundary needs an unambiguous request', async () => {
  const { plan } = await say(new HouseholdSimulator(contexts.lisbon_private), 'you can watch the kids room again');
  assert.deepEqual(tools(plan), []);
  assert.match(plan.clarification ?? '', /nursery/);
});

test('bad input gets a reply saying what the agent can do, and no action', async () => {
  const log =
    '2026-11-21T10:00:01Z ERROR [pipeline] stream timeout\n    at Object.<anonymous> (/app/src/x.js:10:5)\n    at run (/app/src/y.js:3:1)\nwatch garage';
  for (const message of ['', '   ', '😀😀😀', '🔥 🚪 ❓', 'watch the garage '.repeat(80), log, 'vigila la cochera esta noche por favor']) {
    const { plan, reply } = await say(new HouseholdSimulator(contexts.lisbon), message);
    assert.deepEqual(tools(plan), [], JSON.stringify(message.slice(0, 30)));
    assert.match(reply, /I can watch rooms/, JSON.stringify(message.slice(0, 30)));
  }
});

test('one request is one watch over all its places; dropping one place keeps the rest watched', async () => {
  const home = new HouseholdSimulator(contexts.lisbon);
  const first = await say(home, 'watch the porch and the driveway tonight');
  assert.deepEqual(tools(first.plan), ['create_watch']);
  assert.deepEqual([...(first.plan.calls[0].args.sensor_ids as string[])].sort(), ['sen_driveway_cam', 'sen_porch_cam']);
  const drop = await say(home, 'drop the driveway');
  assert.deepEqual(tools(drop.plan), ['update_watch']);
  assert.deepEqual(drop.plan.calls[0].args.sensor_ids, ['sen_porch_cam']);
  const add = await say(home, 'add the garage too');
  assert.deepEqual(tools(add.plan), ['update_watch']);
  assert.deepEqual(add.plan.calls[0].args.sensor_ids, ['sen_porch_cam', 'sen_garage_motion']);
  assert.equal(home.ctx.watches.length, 1);
});

test('the answer to a clarifying question completes the request it was about', async () => {
  const home = new HouseholdSimulator(contexts.lisbon);
  const asked = await say(home, 'watch the door tonight');
  assert.ok(asked.plan.clarification);
  const answered = await say(home, 'the back one');
  assert.deepEqual(
    answered.plan.calls.map((c) => c.args.sensor_ids),
    [['sen_back_door']],
  );

  const shed = new HouseholdSimulator(contexts.lisbon);
  assert.match((await say(shed, 'watch the shed tonight')).reply, /do you mean the garage/);
  assert.deepEqual(
    (await say(shed, 'yes')).plan.calls.map((c) => c.args.sensor_ids),
    [['sen_garage_motion']],
  );
});

test("a clock window already over today is a question, not tomorrow's watch taken silently", async () => {
  const { plan } = await say(new HouseholdSimulator(contexts.lisbon), 'watch the porch from 2 to 4 this afternoon');
  assert.deepEqual(tools(plan), []);
  assert.match(plan.clarification ?? '', /already over today/);
});

test('"its camera" is the camera of what was just named', async () => {
  const { plan } = await say(new HouseholdSimulator(contexts.lisbon), 'rename the living room to lounge, then mute its camera');
  assert.deepEqual(
    plan.calls.map((c) => c.tool),
    ['set_household', 'mute_sensor'],
  );
  assert.equal(plan.calls[1].args.sensor_id, 'sen_living_cam');
});
