/**
 * Before round R, coverage probe (docs/decisions.md, "Before round R: coverage probe"): a part of the message nobody
 * understood, said beside a request, leaves the request undone and asks. By class: an end or start from an event
 * ("till the band finishes", "once the taxi arrives") inside a reason after the request; a bare number or such an
 * event inside a question said after the request. Each class with phrasings where the change must not fire.
 * Phrasings are our own, not the probe's or the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const converse = converseIn(loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json')));

async function assertAsks(messages: string[]): Promise<void> {
  for (const message of messages) {
    const [turn] = await converse('lisbon', [message]);
    assert.equal(turn.changes.length, 0, `acted on "${message}": ${JSON.stringify(turn.changes)}`);
    assert.ok(turn.plan.clarification, `"${message}" did not ask: ${turn.reply}`);
  }
}

async function assertActs(cases: [string, string][]): Promise<void> {
  for (const [message, tool] of cases) {
    const [turn] = await converse('lisbon', [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      [tool],
      `${message}: ${turn.reply}`,
    );
  }
}

test('an end or start from an event inside a reason after the request is asked about', async () => {
  await assertAsks([
    'keep an eye on the garage tonight, the kids are out until the band finishes',
    'mute the living room camera, my sister is visiting till the baby sleeps',
    'stop watching the porch, my brother is home once the taxi arrives',
    'watch the backyard tonight, the dog is out till the vet calls',
  ]);
  // a time word in the reason, or a cause ("after the break-in", "when the postman comes"), is no end: the request stands
  await assertActs([
    ['watch the garage tonight, we have guests till late', 'create_watch'],
    ["watch the garage tonight, I'm nervous after the break-in", 'create_watch'],
    ['mute the living room camera, the dog barks when the postman comes', 'mute_sensor'],
    ["mute the living room camera, we've got guests", 'mute_sensor'],
  ]);
});

test('a bare number or an event end inside a question after the request is asked about', async () => {
  await assertAsks([
    'watch the garage tonight - oh and is the porch door shut 37',
    'mute the nursery camera. is the porch door shut 12',
    'watch the garage tonight, is the porch camera on until the builder goes',
    'stop watching the porch, and what time does the garage one start till the milkman comes',
  ]);
  // a question alone is answered as before; a question with nothing left over leaves the request to act
  for (const message of ['is the porch door shut 37', 'was anyone at the porch until the milkman came']) {
    const [turn] = await converse('lisbon', [message]);
    assert.equal(turn.changes.length, 0, message);
    assert.ok(!turn.plan.clarification, `"${message}" asked: ${turn.reply}`);
  }
  await assertActs([['watch the garage tonight, is the porch camera on?', 'create_watch']]);
});

test('a clock with a unit no reader knows is no clock', async () => {
  await assertAsks(['watch the garage from 7 bells', 'watch the garage at 6 ticks tonight', 'keep an eye on the porch from 8 glorps till midnight']);
  // a clock with a word of time after it, or a length, reads as before
  await assertActs([
    ['watch the garage from 7pm till midnight', 'create_watch'],
    ['watch the garage for 2 hours', 'create_watch'],
    ['watch the garage from 7 till the morning', 'create_watch'],
    ['every weeknight from 10 till 5 I want the garage watched', 'create_watch'],
    ['from 10pm till 5 dad wants the garage watched', 'create_watch'],
  ]);
});
