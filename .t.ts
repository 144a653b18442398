import { join } from 'node:path';
import { loadHeldoutContexts } from './tests/heldout/household-heldout.ts';
import { createNormalizer, extractTimeSpec } from './src/platform/language/index.ts';
const ctx = loadHeldoutContexts(join(process.cwd(), 'tests/heldout/household-contexts.json'))[process.argv[2]];
const { tokens } = createNormalizer([])(process.argv[3], []);
console.log(tokens.map((t) => t.text).join(' '));
const s = extractTimeSpec(tokens, 0, tokens.length, ctx);
console.log(JSON.stringify({ ...s, consumed: [...s.consumed] }));
