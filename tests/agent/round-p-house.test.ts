/**
 * Round P household (docs/decisions.md, "Round P: household"): a noun or verb inside a switch cue's gap
 * that no place reader took ("turn the pool pump off") is left over, so the agent asks rather than mute
 * the place's camera. Each class with phrasings that must act, and phrasings where the change must not
 * fire. Phrasings are our own, not the blind sets'.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'round-p-household-contexts.json'));
const converse = converseIn(contexts);
const tools = (turn: { changes: { tool: string }[] }) => turn.changes.map((c) => c.tool);

test("a device word in a switch cue's gap that no reader took is asked about, not muted", async () => {
  // p_tucson: pool camera, garage door contact, patio camera
  for (const message of ['turn the pool filter off', 'switch the pool pump off please', 'turn the garage fridge off', 'switch the patio fountain off']) {
    const [turn] = await converse('p_tucson', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
  }
});

test("a sensor's own words in a switch cue's gap still mute; a device the agent cannot control still declines", async () => {
  for (const message of [
    'turn the pool camera off',
    'turn the pool one off',
    'switch the pool cam off',
    'turn the pool off',
    'turn the patio camera off for now',
  ]) {
    const [turn] = await converse('p_tucson', [message]);
    assert.deepEqual(tools(turn), ['mute_sensor'], `${message}: ${turn.reply}`);
  }
  for (const message of ['turn the pool light off', 'turn the patio lights off']) {
    const [turn] = await converse('p_tucson', [message]);
    assert.deepEqual(turn.changes, [], `${message}: ${turn.reply}`);
    assert.match(turn.reply, /can't/, message);
  }
});
