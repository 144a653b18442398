/**
 * The conversation the agent's language tests hold: `converseOffline` (household-simulator.ts) in a
 * household named by its key in `contexts`, or given whole, counting as changes the tools that
 * change the household (STATE_TOOLS, as the held-out sets do). It lives beside the simulator, not in
 * it, because tests/heldout/household-heldout.ts imports the simulator: an import back would be a cycle.
 */
import type { HouseholdContext } from '../../src/home/agent/context.ts';
import { STATE_TOOLS } from '../heldout/household-heldout.ts';
import { converseOffline } from './household-simulator.ts';

export function converseIn(contexts: Record<string, HouseholdContext>) {
  return (context: string | HouseholdContext, messages: string[]) =>
    converseOffline(typeof context === 'string' ? contexts[context] : context, messages, STATE_TOOLS);
}
