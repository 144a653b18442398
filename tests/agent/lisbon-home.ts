/**
 * The checks the agent's language tests share in the held-out Lisbon home (the households of lisbon-workshop.ts):
 * what is asked and what is done for each message (before-s-probe, before-t-probe), and the changes one message makes
 * or its being asked (s-reason, t-words).
 */
import assert from 'node:assert/strict';
import { contexts, converse } from './lisbon-workshop.ts';

export { converse };

/** The Lisbon home as the held-out set has it. */
export const home = contexts.lisbon;

/** Each message, said alone in the household named, asks and changes nothing. */
export async function assertAsks(messages: string[], context = 'lisbon'): Promise<void> {
  for (const message of messages) {
    const [turn] = await converse(context, [message]);
    assert.equal(turn.changes.length, 0, `acted on "${message}": ${JSON.stringify(turn.changes)}`);
    assert.ok(turn.plan.clarification, `"${message}" did not ask: ${turn.reply}`);
  }
}

/** Each message, said alone in the household named, calls exactly these tools. */
export async function assertActs(cases: [string, string[]][], context = 'lisbon'): Promise<void> {
  for (const [message, tools] of cases) {
    const [turn] = await converse(context, [message]);
    assert.deepEqual(
      turn.changes.map((c) => c.tool),
      tools,
      `${message}: ${turn.reply}`,
    );
  }
}

export type Change = { tool: string; args: Record<string, unknown> };

/** The message, said in the Lisbon home, makes these changes (each compared on the arguments expected of it). */
export async function expectChanges(message: string, expected: Change[]) {
  const [turn] = await converse(home, [message]);
  const got = turn.changes.map((c) => ({
    tool: c.tool,
    args: Object.fromEntries(Object.keys(expected.find((e) => e.tool === c.tool)?.args ?? {}).map((k) => [k, c.args[k]])),
  }));
  assert.deepEqual(got, expected, `${message}: ${turn.reply}`);
}

/** The message, said in the Lisbon home, is asked and changes nothing; the reply says `says` when given. */
export async function expectAsked(message: string, says?: RegExp) {
  const [turn] = await converse(home, [message]);
  assert.equal(turn.changes.length, 0, `${message}: ${turn.reply}`);
  if (says) assert.match(turn.reply, says, message);
}
