import { join } from 'node:path';
import { loadHeldoutContexts } from './tests/heldout/household-heldout.ts';
import { planOffline } from './src/home/agent/offline-planner.ts';
const base = loadHeldoutContexts(join(process.cwd(), 'tests/heldout/household-contexts.json')).lisbon;
const ctx = { ...structuredClone(base), now: Date.parse('2026-11-21T17:00Z'), people: [{ id: 'per_rosa', name: 'Rosa', note: 'our babysitter' }, { id: 'per_joe', name: 'Joe', note: 'grandfather, visits on Sundays' }, { id: 'per_lia', name: 'Lia', note: null }] };
console.log(JSON.stringify(planOffline(process.argv[2], ctx)));
