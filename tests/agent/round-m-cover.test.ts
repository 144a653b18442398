/**
 * Round M household: coverage (docs/decisions.md, "Round M household: coverage"). A word the reading
 * did not account for stops the action: a request whose own verb is none the agent reads ("sweep the
 * porch tonight"), a joined request to pass a word to someone else ("…and tell my sister to…"), an end
 * the agent cannot read ("until teacup", "until the plumber leaves"), and "stop" with a sensor that has a
 * watch (mute it, or stand down the watch?). Phrasings are our own, not those of the blind sets, with
 * those where the change must not fire beside them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);
const tools = (turn: { changes: { tool: string }[] }) => turn.changes.map((c) => c.tool);

/** A small home whose garage camera has a watch running. */
const home: HouseholdContext = {
  ...contexts.lisbon_night,
  rooms: [{ name: 'garage' }, { name: 'porch' }, { name: 'shed' }, { name: 'boot room' }],
  sensors: [
    { id: 'garage_cam', name: 'garage camera', kind: 'camera', room: 'garage', muted: false },
    { id: 'porch_cam', name: 'porch camera', kind: 'camera', room: 'porch', muted: false },
    { id: 'shed_door', name: 'shed door contact', kind: 'contact', room: 'shed', muted: false },
    { id: 'boot_cam', name: 'boot room camera', kind: 'camera', room: 'boot room', muted: false },
  ],
  boundaries: [],
  watches: [
    {
      id: 'wat_garage',
      subject: 'garage',
      sensor_ids: ['garage_cam'],
      starts_at: '2026-11-21T20:00:00.000Z',
      ends_at: '2026-11-22T07:00:00.000Z',
      recurrence: 'none',
      window: '20:00 to 07:00',
    },
  ],
} as HouseholdContext;

async function expectNoChange(messages: string[], reply: RegExp): Promise<void> {
  for (const message of messages) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(tools(turn), [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, reply, `${message}: ${turn.reply}`);
  }
}

async function expectTools(cases: [string, string][]): Promise<void> {
  for (const [message, tool] of cases) {
    const [turn] = await converse(home, [message]);
    assert.deepEqual(tools(turn), [tool], `${message}: ${turn.reply}`);
  }
}

test('a request whose own verb is none the agent reads is declined, whatever place it names', async () => {
  await expectNoChange(['sweep the porch tonight', 'please paint the shed tomorrow', 'defrost the garage by 6pm'], /can't "/);
});

test('a request opened by a verb of watching, or a general one, still acts', async () => {
  await expectTools([
    ['please watch the porch tonight', 'create_watch'],
    ['keep an eye on the shed till 7am', 'create_watch'],
    ['use the porch camera tonight', 'create_watch'],
  ]);
});

test('a joined request to pass a word to someone else declines the whole message', async () => {
  await expectNoChange(
    [
      'watch the porch tonight and tell my sister to bring the bins in',
      'watch the shed till 7am and remind the kids to leave the gate alone',
      'watch the porch tonight and ask the courier to come back tomorrow',
    ],
    /can't "(tell|remind|ask)/,
  );
});

test('telling the user is the agent’s own way of telling', async () => {
  await expectTools([['watch the shed till 7am and let me know if it opens', 'create_watch']]);
});

test('an end the agent cannot read asks instead of dropping it', async () => {
  await expectNoChange(
    [
      'watch the porch till teacup',
      'watch the shed from 8 tonight until the plumber leaves',
      'watch the porch from 10pm till my husband gets home',
      'watch the porch till 5 and the shed till wombat',
    ],
    /what time or how long|Until when/,
  );
});

test('an end the agent reads still acts', async () => {
  await expectTools([
    ['watch the porch till 6am', 'create_watch'],
    ['watch the shed until sunrise', 'create_watch'],
    ['watch the porch from 9 tonight till midnight', 'create_watch'],
  ]);
});

test('"stop" with a sensor that has a watch asks: mute it, or stand down its watch?', async () => {
  await expectNoChange(['stop the garage camera', 'please stop the garage cam'], /mute .*or stand down/);
});

test('"stop" with a watch, or "stop watching", stands the watch down', async () => {
  await expectTools([
    ['stop the garage watch', 'stand_down_watch'],
    ['stop watching the garage', 'stand_down_watch'],
    ['mute the garage camera', 'mute_sensor'],
  ]);
});

test('texting shorthand for "stop" and "room" is read as the words', async () => {
  await expectTools([
    ['stp watching the garage', 'stand_down_watch'],
    ['pls mute the boot rm camera', 'mute_sensor'],
    ['mute the boot room camera', 'mute_sensor'],
  ]);
});

test('a reason after a comma with a person as its subject is no part of the request', async () => {
  await expectTools([
    ['keep an eye on the porch for the next hour, the gas fella is coming', 'create_watch'],
    ['watch the shed tomorrow from 8am to 6pm, builders are fixing the roof', 'create_watch'],
    ['watch the porch till 7am, my neighbour is away', 'create_watch'],
  ]);
});

test('a reason with a word no lexicon has still asks', async () => {
  await expectNoChange(['watch the porch for the next hour, the blorp fella is coming'], /blorp/);
});
