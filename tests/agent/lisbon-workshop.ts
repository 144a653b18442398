/**
 * The scaffolding the agent's time tests share (t-time, round-t-time, before-s-time, late-time): the held-out
 * households and a conversation in them (converse-in.ts), a small shop in Lisbon (UTC in November; sunset about
 * 17:21, sunrise about 07:27) with no boundaries or watches, the workshop most of them use, the clock on
 * Saturday 21 November 2026, the turn a conversation returns, and the window a turn's one change sets.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

export const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', 'household-contexts.json'));
export const converse = converseIn(contexts);

/** A shop in Lisbon with these rooms and sensors, and no boundaries or watches. */
export function lisbonShop(rooms: HouseholdContext['rooms'], sensors: HouseholdContext['sensors']): HouseholdContext {
  return { ...contexts.lisbon, rooms, sensors, boundaries: [], watches: [] } as HouseholdContext;
}

/** A small workshop in Lisbon: a workshop, a yard and an office. */
export const workshop = lisbonShop([{ name: 'workshop' }, { name: 'yard' }, { name: 'office' }], [
  { id: 'shop_cam', name: 'workshop camera', kind: 'camera', room: 'workshop', muted: false },
  { id: 'yard_cam', name: 'yard camera', kind: 'camera', room: 'yard', muted: false },
  { id: 'office_motion', name: 'office motion', kind: 'motion', room: 'office', muted: false },
] as HouseholdContext['sensors']);

/** The workshop at this clock time on Saturday 21 November 2026. */
export const at = (hhmm: string): HouseholdContext => ({ ...workshop, now: Date.parse(`2026-11-21T${hhmm}:00Z`) });

export type Turn = { changes: { tool: string; args: Record<string, unknown> }[]; reply: string };

/** The start and end (to the minute) of the one change a turn makes. */
export function windowOf(turn: Turn, said: string): [string | undefined, string | undefined] {
  assert.equal(turn.changes.length, 1, `${said}: ${turn.reply}`);
  const { starts_at, ends_at } = turn.changes[0].args as { starts_at?: string; ends_at?: string };
  return [starts_at?.slice(0, 16), ends_at?.slice(0, 16)];
}

/** What is said in one message is asked: nothing changes. */
export async function expectAsked(ctx: HouseholdContext, said: string) {
  const [turn] = (await converse(ctx, [said])) as Turn[];
  assert.equal(turn.changes.length, 0, `${said}: ${turn.reply}`);
}
