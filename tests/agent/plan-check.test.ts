/**
 * The last look before a plan acts (docs/decisions.md, "Round F household: safeguards before
 * acting"): a plan that does not account for a clock time, weekday or date the message says, a
 * two-way day ("next friday"), a day without hours, or a watch wider than the places named, turns
 * into a question. The phrasings are our own, not those of any blind set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import { checkPlanAgainstMessage, findSaidClocks } from '../../src/home/agent/plan-check.ts';
import type { Plan } from '../../src/home/agent/plan.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { fromWallClock } from '../../src/platform/time/zoned-time.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const lisbon = contexts.lisbon; // Sat 2026-11-21, Europe/Lisbon

const at = (local: string) => {
  const [d, t] = local.split('T');
  const [year, month, day] = d.split('-').map(Number);
  const [hour, minute] = t.split(':').map(Number);
  return new Date(fromWallClock({ year, month, day, hour, minute }, 'Europe/Lisbon')).toISOString();
};
const watchPlan = (sensor_ids: string[], from: string, to: string, recurrence = 'none'): Plan => ({
  planner: 'offline',
  refusals: [],
  calls: [{ tool: 'create_watch', args: { sensor_ids, starts_at: at(from), ends_at: at(to), recurrence }, say: `I'm watching it from ${from} until ${to}.` }],
});

test('the clock times a message says are found in words and digits, durations and counts are not', () => {
  const said = (m: string) => findSaidClocks(m).map((c) => `${c.hour}:${String(c.minute).padStart(2, '0')}${c.certain ? '' : '?'}`);
  assert.deepEqual(said('keep the shed watched till twenty past four'), ['4:20?']);
  assert.deepEqual(said('from 8.15pm to 6am'), ['20:15', '6:00']);
  assert.deepEqual(said('between 3 and 6'), ['3:00?', '6:00?']);
  assert.deepEqual(said('watch the garage for 3 hours, there are 2 cars'), []);
  assert.deepEqual(said('till noon'), ['12:00']);
  assert.deepEqual(said('back around 8 in the evening'), ['20:00']);
  assert.deepEqual(said("at seven o'clock"), ['7:00?']);
});

test('a plan that misses or bends a clock time the message says is a question', () => {
  const porch = ['sen_porch_cam'];
  // right: no question
  assert.equal(checkPlanAgainstMessage('watch the porch from half six till 11', watchPlan(porch, '2026-11-21T18:30', '2026-11-21T23:00'), lisbon), undefined);
  assert.equal(
    checkPlanAgainstMessage('watch the porch from 9pm to quarter to six', watchPlan(porch, '2026-11-21T21:00', '2026-11-22T05:45'), lisbon),
    undefined,
  );
  // a half-hour read as the hour before, a "to" time rounded, the wrong half of the day
  assert.match(
    checkPlanAgainstMessage('watch the porch from half six till 11', watchPlan(porch, '2026-11-21T17:30', '2026-11-21T23:00'), lisbon) ?? '',
    /half six/,
  );
  assert.match(
    checkPlanAgainstMessage('watch the porch till five to ten', watchPlan(porch, '2026-11-21T16:00', '2026-11-21T22:00'), lisbon) ?? '',
    /haven't changed anything/,
  );
  assert.ok(checkPlanAgainstMessage('watch the porch from 7am', watchPlan(porch, '2026-11-21T19:00', '2026-11-22T07:30'), lisbon));
  // "about 4" read as a window around it, not as the end the message gives
  assert.ok(
    checkPlanAgainstMessage(
      'keep watching the house until we are home on monday, about 4 I guess',
      watchPlan(porch, '2026-11-23T15:30', '2026-11-23T16:30'),
      lisbon,
    ),
  );
});

test('a weekday or a date the message names must be a day of the plan', () => {
  const garage = ['sen_garage_motion'];
  assert.equal(
    checkPlanAgainstMessage('watch the garage on wednesday from 10 to 2', watchPlan(garage, '2026-11-25T10:00', '2026-11-25T14:00'), lisbon),
    undefined,
  );
  assert.match(
    checkPlanAgainstMessage('watch the garage on wednesday from 10 to 2', watchPlan(garage, '2026-11-24T10:00', '2026-11-24T14:00'), lisbon) ?? '',
    /wednesday/,
  );
  assert.match(
    checkPlanAgainstMessage('watch the garage on the 29th from 8 to 6', watchPlan(garage, '2026-11-28T08:00', '2026-11-28T18:00'), lisbon) ?? '',
    /29th/,
  );
  // a weekly pattern names its days; the first window is one of them but not all
  assert.equal(
    checkPlanAgainstMessage('watch the garage every monday and thursday 8 to 6', watchPlan(garage, '2026-11-23T08:00', '2026-11-23T18:00', 'weekdays'), lisbon),
    undefined,
  );
  // a sentence about what happened is not part of the request
  assert.equal(
    checkPlanAgainstMessage(
      'Someone tried the gate on monday at 3. Watch the garage tonight from 10 to 6.',
      watchPlan(garage, '2026-11-21T22:00', '2026-11-22T06:00'),
      lisbon,
    ),
    undefined,
  );
});

test('"next <weekday>" and a day said without hours ask; the same with hours or "all day" act', () => {
  for (const m of ['watch the driveway next thursday from 1 to 4', 'keep an eye on the back door next monday evening']) {
    const plan = planOffline(m, lisbon);
    assert.equal(plan.calls.length, 0, m);
    assert.match(plan.clarification ?? '', /can mean|which|didn't/i, m);
  }
  const lone = planOffline('watch the driveway on the 28th', lisbon);
  assert.equal(lone.calls.length, 0);
  assert.match(lone.clarification ?? '', /hours|what time/i);
  const withHours = planOffline('watch the driveway on the 28th from 9 in the morning till 1 in the afternoon', lisbon);
  assert.equal(withHours.calls.length, 1, withHours.clarification);
});

test('named places never widen; "the upstairs cameras" never reaches places the home does not say are upstairs', () => {
  const wide = ['sen_porch_cam', 'sen_driveway_cam', 'sen_living_cam', 'sen_nursery_cam'];
  assert.match(
    checkPlanAgainstMessage('watch the porch and the driveway tonight', watchPlan(wide, '2026-11-21T17:21', '2026-11-22T07:28'), lisbon) ?? '',
    /didn't name/,
  );
  assert.equal(
    checkPlanAgainstMessage(
      'watch the porch and the driveway tonight',
      watchPlan(['sen_porch_cam', 'sen_driveway_cam'], '2026-11-21T17:21', '2026-11-22T07:28'),
      lisbon,
    ),
    undefined,
  );
  assert.equal(
    checkPlanAgainstMessage('watch all the cameras tonight, the porch especially', watchPlan(wide, '2026-11-21T17:21', '2026-11-22T07:28'), lisbon),
    undefined,
  );
  assert.match(checkPlanAgainstMessage('watch the outdoor cameras tonight', watchPlan(wide, '2026-11-21T17:21', '2026-11-22T07:28'), lisbon) ?? '', /outdoor/);
  const upstairs = planOffline('watch every upstairs camera tonight', lisbon);
  assert.equal(upstairs.calls.length, 0, JSON.stringify(upstairs.calls));
});

test('a window that ends at midnight ends the day before it: "until the 30th", "till sunday"', () => {
  const garage = ['sen_garage_motion'];
  assert.equal(checkPlanAgainstMessage('watch the garage until the 30th', watchPlan(garage, '2026-11-21T15:00', '2026-12-01T00:00'), lisbon), undefined);
  assert.equal(checkPlanAgainstMessage('watch the garage till monday', watchPlan(garage, '2026-11-21T15:00', '2026-11-24T00:00'), lisbon), undefined);
  assert.ok(checkPlanAgainstMessage('watch the garage till monday', watchPlan(garage, '2026-11-21T15:00', '2026-11-25T00:00'), lisbon));
});
