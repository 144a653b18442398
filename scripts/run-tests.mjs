#!/usr/bin/env node
// Runs every tests/**/*.test.ts with node's test runner (Node 20 has no glob support in --test).
// One throwaway PostgreSQL server is started for the whole run and handed to the test files
// through VIGIL_TEST_PG_URL; each file creates its own database in it.
// Usage: npm test [-- path-filter ...]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startPostgres } from './pg-server.mjs';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = walk('tests')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const pg = await startPostgres();
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...files],
  { stdio: 'inherit', env: { ...process.env, VIGIL_TEST_PG_URL: pg.url } },
);
const code = await new Promise((resolve) => child.on('exit', (c, sig) => resolve(c ?? (sig ? 1 : 0))));
pg.stop();
process.exit(code);
