/**
 * Face-watch language beyond the blind cases: the same rules on other wordings and
 * other people, so the behaviour is not tied to the held-out sentences.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { planOffline } from '../../src/home/agent/offline-planner.ts';
import type { HouseholdContext } from '../../src/home/agent/context.ts';

const base = loadHeldoutContexts(join(import.meta.dirname, '../heldout/household-contexts.json')).lisbon;
const ctx: HouseholdContext = {
  ...structuredClone(base),
  now: Date.parse('2026-11-21T17:00Z'),
  people: [
    { id: 'per_rosa', name: 'Rosa', note: 'our babysitter' },
    { id: 'per_joe', name: 'Joe', note: 'grandfather, visits on Sundays' },
    { id: 'per_lia', name: 'Lia', note: null },
  ],
};
const watch = (message: string) => {
  const plan = planOffline(message, ctx);
  return { plan, args: plan.calls.find((c) => c.tool === 'create_watch')?.args as Record<string, any> | undefined };
};

test('a role word finds the one person whose note says it, through WordNet synonyms', () => {
  assert.deepEqual(watch('let me know when grandpa turns up').args?.person_ids, ['per_joe']);
  assert.deepEqual(watch('tell me when the babysitter shows up').args?.person_ids, ['per_rosa']);
  // a role nobody's note has is not guessed
  assert.equal(watch('tell me when the plumber arrives').args?.person_ids, undefined);
});

test('someone described through a known person ("Lia\'s boyfriend") is asked about, not watched as them', () => {
  const { plan, args } = watch("ping me if Lia's boyfriend comes round");
  assert.equal(args, undefined);
  assert.match(plan.clarification ?? '', /Lia's boyfriend/);
});

test('arriving is watched at the entrance cameras; being seen, on every camera', () => {
  assert.deepEqual([...watch('tell me when Lia gets back').args!.sensor_ids].sort(), ['sen_driveway_cam', 'sen_porch_cam']);
  assert.equal(watch('tell me if you see Lia').args!.sensor_ids.length, ctx.sensors.filter((s) => s.kind === 'camera').length);
});

test('a face watch on a sensor that is no camera asks, and never drops part of the request', () => {
  const kitchen = watch('alert me if a stranger is in the kitchen');
  assert.equal(kitchen.args, undefined);
  assert.match(kitchen.plan.clarification ?? '', /Only a camera.*back door contact/);
  const both = watch('notify me if Rosa is in the garage or the backyard');
  assert.equal(both.args, undefined);
  assert.match(both.plan.clarification ?? '', /garage motion/);
});

test('"the door" for a stranger is the door with a camera, and the reply says why', () => {
  const { plan, args } = watch('warn me if someone unfamiliar is at the door tonight');
  assert.deepEqual(args?.sensor_ids, ['sen_porch_cam']);
  assert.match((plan.notes ?? []).join(' '), /only a camera sees faces/);
});

test('a determiner before "arrives" is no name: "if any car pulls in" watches, it does not ask who Any is', () => {
  for (const message of ['let me know if any car pulls into the driveway tonight', 'tell me when some van stops on the driveway']) {
    const { plan, args } = watch(message);
    assert.equal(plan.clarification, undefined, message);
    assert.deepEqual(args?.sensor_ids, ['sen_driveway_cam'], message);
    assert.equal(args?.person_ids, undefined, message);
  }
});
