import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import type { Figure } from './machine.ts';

/**
 * `npm run bench`: every bench/*.bench.ts in its own process (pipeline first); results in
 * bench/results/. Ends with one table of every bench's figures beside their limits.
 */
const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort((a, b) => (a.startsWith('pipeline') ? -1 : b.startsWith('pipeline') ? 1 : a.localeCompare(b)));
const failed: string[] = [];
for (const f of files) {
  console.log(`\n== ${f}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', `bench/${f}`], { stdio: 'inherit' });
  if (r.status !== 0) failed.push(f);
}
console.log('\n== figures (ratio = value / limit, measured in the same run)');
for (const f of files) {
  const file = `bench/results/${f.replace('.bench.ts', '.json')}`;
  if (!existsSync(file)) continue;
  const result = JSON.parse(readFileSync(file, 'utf8')) as { figures?: Figure[]; machine?: { load_average_at_start: number[]; load_average_at_end: number[] } };
  const load = result.machine ? ` (load ${result.machine.load_average_at_start[0]} → ${result.machine.load_average_at_end[0]})` : '';
  console.log(`${f}${load}`);
  for (const g of result.figures ?? []) {
    console.log(`  ${g.figure}: ${g.value} ${g.unit} | ${g.limit ? `${g.limit.value} ${g.limit.unit} → ratio ${g.ratio}` : `no limit: ${g.no_limit}`}`);
  }
}
if (failed.length) console.log(`\nfailed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
