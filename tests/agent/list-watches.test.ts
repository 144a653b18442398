import { test } from 'node:test';
import assert from 'node:assert/strict';
import { listWatches } from '../../src/home/agent/tools/list-watches.ts';
import type { ToolContext } from '../../src/home/agent/tool-kit.ts';

function contextWith(watches: { id: string; subject: string; window: string }[]): ToolContext {
  const ports = { watches: { listActive: async () => watches } };
  return { ports, scope: { principal: { tenantId: 'ten_1' } }, revealed: new Set() } as unknown as ToolContext;
}

test('the watch list names an armed house once, without a doubled article', async () => {
  const result = await listWatches.run(
    contextWith([
      { id: 'wat_1', subject: 'the whole house', window: 'armed until disarmed' },
      { id: 'wat_2', subject: 'garage', window: 'tonight' },
    ]),
    {},
  );
  assert.equal(result.text, "I'm watching the whole house (armed until disarmed), the garage (tonight).");
});

test('with nothing watched the list says so', async () => {
  const result = await listWatches.run(contextWith([]), {});
  assert.equal(result.text, "I'm not watching anything right now.");
});
