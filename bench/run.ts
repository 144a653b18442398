import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** `npm run bench`: every bench/*.bench.ts in its own process (pipeline first); results in bench/results/. */
const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort((a, b) => (a.startsWith('pipeline') ? -1 : b.startsWith('pipeline') ? 1 : a.localeCompare(b)));
let failed = 0;
for (const f of files) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
