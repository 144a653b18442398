/**
 * The planted-word coverage probe (tests/agent/coverage-probe.ts; docs/decisions.md, "Coverage probe"): about 150
 * household requests the agent acts on correctly, each with an unknown or un-actionable part planted in one slot,
 * run the way the held-out scorer runs them. A variant that must ask changes nothing; a slot whose allowed outcome is
 * "same-or-none" (a politeness word, a reason naming no place, a quote after the request) may act as the original did.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';
import { loadSources, probe } from './coverage-probe.ts';

const converse = converseIn(loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json')));

/**
 * Leaks still open, per slot, with their cause (docs/decisions.md, "Coverage probe"). A slot not listed must have
 * none. The counts may only go down: lower them here when a cause is fixed.
 */
const OPEN_LEAKS: Record<string, number> = {
  // (end-event: none left, a sensor's name no longer takes a time — docs/decisions.md, "Before round T: probe leaks")
  // "after …" or "when …" inside a reason or a question is read as a cause ("we're nervous after the break-in")
  'start-event': 11,
  // a reason after a stand-down's "except" list, a reason inside a statement sentence, or one a question swallowed
  'reason-place': 3,
  // "flurb all the outside bits tonight, so driveway, garden and shed, …": an unknown verb before a spelt-out group
  verb: 1,
  // a joined request after "… would you", a "while" clause, or a statement sentence
  'second-request': 3,
  // a sensor's name takes a number ("the gate camera 2")
  number: 1,
  // a quote inside a "leave … alone" or "keep … running" part, or beside a joined request
  quoted: 4,
  start: 1,
  // "don't watch the side gate saturday night" stands down the whole nightly watch
  negation: 1,
  // slots from the blind writers' failure classes (docs/decisions.md, "Before round R: coverage probe"):
  // "watch the living room and uh the nursery and the kitchen tonight" watches the kitchen alone
  'joined-filler': 1,
  // "from 7 bellso'clock": the unit glued to "o'clock"
  'clock-unit': 1,
  // (unknown-before-place: none left, docs/decisions.md, "Before round S: probe leaks")
  // slots from the classes found before round T (docs/decisions.md, "Before round T: probe leaks"); aside and
  // trailing-question have none: "… while I nip to the shop and snarf the nursery" (a "while" clause swallows it)
  'and-unknown-verb': 1,
};

test('planted-word probe: a variant that must ask changes nothing (open leaks only go down)', async () => {
  // (the committed draw: drawSources(150) wrote coverage-probe-sources.json once; the ceilings are counted on it)
  const sources = loadSources();
  assert.equal(sources.length, 150);
  const outcomes = await probe(sources);
  const bySlot = new Map<string, { total: number; leaks: string[] }>();
  for (const o of outcomes) {
    const s = bySlot.get(o.variant.slot) ?? { total: 0, leaks: [] };
    s.total++;
    if (!o.ok) s.leaks.push(`${o.variant.source.id}: "${o.variant.message}" → ${o.changes.map((c) => c.tool).join(', ')}`);
    bySlot.set(o.variant.slot, s);
  }
  const lines = [...bySlot].map(([slot, s]) => `  ${slot.padEnd(15)} ${String(s.leaks.length).padStart(3)} of ${s.total}`);
  console.log(`coverage probe: ${sources.length} sentences, ${outcomes.length} variants, ${outcomes.filter((o) => !o.ok).length} leaks\n${lines.join('\n')}`);
  for (const [slot, s] of bySlot) {
    assert.ok(s.leaks.length <= (OPEN_LEAKS[slot] ?? 0), `${slot}: ${s.leaks.length} leaks (at most ${OPEN_LEAKS[slot] ?? 0})\n${s.leaks.join('\n')}`);
  }
});

test('the causes the probe found: each planted part gets one question and no change', async () => {
  const mustAsk = [
    // a reason whose subject is another place of the home
    'watch the garage tonight, the nursery keeps creaking',
    'watch the garage tonight, the living room door was left open',
    'mute the living room camera, we have got guests, the kitchen has been making noises',
    // a negated watch with a time, read as a boundary (which has none)
    "don't watch the garage tonight",
    "don't watch the garage for 90 min",
    // an event start the reading did not read
    'watch the garage tonight once the kettle boils',
    'watch the backyard from 10pm to flamingo',
    // what a reason swallowed after it
    "mute the living room camera, we've got guests and call the plumber",
    "mute the living room camera, we've got guests 37",
    // an unknown word inside a cue's gap
    'leave the nursery and the zorble alone',
    // a word no lexicon knows beside "everything" or "all": no part of the whole home
    'zorp everything tonight',
    'flurb all the cameras tonight',
    'watch everything in the zorble tonight',
  ];
  for (const message of mustAsk) {
    const [turn] = await converse('lisbon', [message]);
    assert.equal(turn.changes.length, 0, `acted on "${message}": ${JSON.stringify(turn.changes)}`);
    assert.ok(turn.plan.clarification, `"${message}" did not ask: ${turn.reply}`);
  }
  // still read as before: a place added with "too", and "don't watch X" with no time is leaving it alone
  const [too] = await converse('lisbon', ['watch the garage tonight, the nursery too']);
  assert.deepEqual(
    too.changes.map((c) => c.tool),
    ['create_watch'],
  );
  for (const message of ['watch everything tonight', 'watch all the cameras tonight']) {
    const [whole] = await converse('lisbon', [message]);
    assert.deepEqual(
      whole.changes.map((c) => c.tool),
      ['create_watch'],
      message,
    );
  }
  const [alone] = await converse('lisbon', ["don't watch the garage"]);
  assert.deepEqual(
    alone.changes.map((c) => c.tool),
    ['set_boundary'],
  );
});
