/**
 * The scaffolding of the agent's tests that build a home of their own on a held-out household (before-r-follow,
 * before-s-follow, before-t-follow, round-q-place, round-r-place, round-s-place, round-t-arm): the held-out households of one file and a conversation in them
 * (converse-in.ts), a sensor said in one line, the turn a conversation returns, and the tools a turn calls.
 */
import { join } from 'node:path';
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { loadHeldoutContexts } from '../heldout/household-heldout.ts';
import { converseIn } from './converse-in.ts';

/** The households of tests/heldout/<file>, and a conversation in one of them. */
export function heldoutHouseholds(file: string) {
  const contexts = loadHeldoutContexts(join(import.meta.dirname, '..', 'heldout', file));
  return { contexts, converse: converseIn(contexts) };
}

export type Sensor = HouseholdContext['sensors'][number];
export const sensor = (id: string, name: string, kind: Sensor['kind'], room: string): Sensor => ({ id, name, kind, room, muted: false });

export type Turn = { reply: string; changes: { tool: string; args: Record<string, unknown> }[] };

/** The tools a turn calls, in order. */
export const tools = (turn: { changes: { tool: string }[] }) => turn.changes.map((c) => c.tool);

/** The tools a turn calls, each with what it acts on (a watch, a sensor, a room or a subject). */
export const toolTargets = (turn: Turn) =>
  turn.changes.map((c) => `${c.tool} ${String(c.args.watch_id ?? c.args.sensor_id ?? c.args.room ?? c.args.subject ?? '')}`);
