/**
 * A day said after a range (docs/decisions.md, "Round T: times"): "from 8pm to 10 on monday", "between 7 and 11pm on
 * the 25th", "6pm till 9 tomorrow" set the whole range's day, as the same day said before the range does; the range
 * is never stretched from today until that day. A range whose ends carry their own days ("from 8pm today until 7
 * tomorrow", "from 8pm until monday 10pm"), one crossing midnight ("from 7pm till 7am tomorrow") and two bare hours
 * (asked) stay as before. Phrasings are our own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
const converse = converseIn(contexts);

/** A small house in Lisbon (UTC in November). */
const house = {
  ...contexts.lisbon,
  rooms: [{ name: 'patio' }, { name: 'garage' }],
  sensors: [
    { id: 'patio_cam', name: 'patio camera', kind: 'camera', room: 'patio', muted: false },
    { id: 'garage_motion', name: 'garage motion', kind: 'motion', room: 'garage', muted: false },
  ],
  boundaries: [],
  watches: [],
} as HouseholdContext;

// Saturday 21 November 2026
const at = (hhmm: string): HouseholdContext => ({ ...house, now: Date.parse(`2026-11-21T${hhmm}:00Z`) });

type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };

async function expectWindow(ctx: HouseholdContext, said: string, start: string, end: string) {
  const [turn] = (await converse(ctx, [said])) as Turn[];
  assert.equal(turn.changes.length, 1, `${said}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  assert.equal(starts_at?.slice(0, 16), start, `${said}: ${turn.reply}`);
  assert.equal(ends_at?.slice(0, 16), end, `${said}: ${turn.reply}`);
}

async function expectAsked(ctx: HouseholdContext, said: string) {
  const [turn] = (await converse(ctx, [said])) as Turn[];
  assert.equal(turn.changes.length, 0, `${said}: ${turn.reply}`);
}

test('a weekday said after a range is the whole range’s day', async () => {
  await expectWindow(at('14:00'), 'watch the patio from 8pm to 10 on monday', '2026-11-23T20:00', '2026-11-23T22:00');
  await expectWindow(at('14:00'), 'keep an eye on the garage from 7pm to 11pm on tuesday', '2026-11-24T19:00', '2026-11-24T23:00');
  await expectWindow(at('14:00'), 'watch the patio from 8pm to 10 monday', '2026-11-23T20:00', '2026-11-23T22:00');
  // (the same day said before the range, as before)
  await expectWindow(at('14:00'), 'watch the patio monday from 8pm to 10', '2026-11-23T20:00', '2026-11-23T22:00');
});

test('a date or "tomorrow" said after a range is the whole range’s day', async () => {
  await expectWindow(at('14:00'), 'watch the garage between 7 and 11pm on the 25th', '2026-11-25T19:00', '2026-11-25T23:00');
  await expectWindow(at('14:00'), 'watch the patio from 6pm till 9 tomorrow', '2026-11-22T18:00', '2026-11-22T21:00');
  await expectWindow(at('14:00'), 'watch the garage from 9pm to 11pm tomorrow', '2026-11-22T21:00', '2026-11-22T23:00');
});

test('ends with their own days, a range crossing midnight and two bare hours stay as before', async () => {
  await expectWindow(at('14:00'), 'watch the patio from 8pm today until 7 tomorrow', '2026-11-21T20:00', '2026-11-22T07:00');
  await expectWindow(at('14:00'), 'watch the garage from 8pm until monday 10pm', '2026-11-21T20:00', '2026-11-23T22:00');
  await expectWindow(at('14:00'), 'watch the patio from 7pm till 7am tomorrow', '2026-11-21T19:00', '2026-11-22T07:00');
  await expectAsked(at('14:00'), 'watch the patio from 8 to 10 on monday');
  // (a range crossing midnight "on" a weekday is never stretched from tonight: asked)
  await expectAsked(at('14:00'), 'watch the garage from 10pm to 2am on monday');
  await expectAsked(at('14:00'), 'watch the garage from 6 till 9 tomorrow');
});
