import { Type } from '@sinclair/typebox';
import { defineTool, theSubject } from '../tool-kit.ts';

export const listWatches = defineTool({
  name: 'list_watches',
  schema: Type.Object({}, { additionalProperties: false }),
  description: 'List the active watches.',
  actionType: 'watches.listed',
  says: () => "Here's what I'm watching.",
  async run({ ports, scope }) {
    const list = await ports.watches.listActive(scope.principal.tenantId);
    const text = list.length ? `I'm watching ${list.map((w) => `${theSubject(w.subject)} (${w.window})`).join(', ')}.` : "I'm not watching anything right now.";
    return { action: { count: list.length, ids: list.map((w) => w.id) }, text };
  },
});
