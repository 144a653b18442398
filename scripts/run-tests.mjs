#!/usr/bin/env node
// Runs every tests/**/*.test.ts, each file in its own node test-runner process, a few at a time.
// One throwaway PostgreSQL server is started for the whole run and handed to the test files
// through VIGIL_TEST_PG_URL; each file creates its own database in it.
//
// Files start longest first, by the durations of the last full green run (tests/durations.json,
// written by this script and committed), so the slow suites (cluster, browser, video, held-out
// sets) run side by side from the start instead of queueing at the end; files not yet timed
// start first. Each file's report is printed whole when it ends, so parallel output never
// interleaves. See README.md, 'Development'.
// The linter (`npm run lint`, eslint.config.js) and the formatter's check run beside the test files in a full run, as one
// more process, and fails the run on any finding; `npm test -- lint` runs it alone.
// Usage: npm test [-- path-filter ... | lint]     VIGIL_TEST_CONCURRENCY (default: 2)
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { startPostgres } from './pg-server.mjs';

const DURATIONS = 'tests/durations.json';

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

function readDurations() {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8'));
  } catch {
    return {};
  }
}

const filters = process.argv.slice(2);
const lint = filters.length === 0 || filters.includes('lint');
const pathFilters = filters.filter((x) => x !== 'lint');
const files = walk('tests')
  .filter((f) => filters.length === 0 || pathFilters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0 && !lint) {
  console.error('no test files matched');
  process.exit(1);
}
const known = readDurations();
const expected = (f) => known[f] ?? Number.POSITIVE_INFINITY;
const queue = [...files].sort((a, b) => expected(b) - expected(a) || a.localeCompare(b));
const concurrency = Math.max(1, Number(process.env.VIGIL_TEST_CONCURRENCY ?? 2) || 2);

const pg = await startPostgres();
const running = new Set();
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    stopping = true;
    for (const c of running) c.kill('SIGTERM');
    pg.stop();
    process.exit(130);
  });
}

/** Runs node with `args`; resolves with its exit code, seconds and output (stdout and stderr, in order). */
function runNode(args, env = process.env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const chunks = [];
    child.stdout.on('data', (c) => chunks.push(c));
    child.stderr.on('data', (c) => chunks.push(c));
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), seconds: (performance.now() - started) / 1000, output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

/** Runs one test file; resolves with its exit code, duration and the counts its spec report ends with. */
async function runFile(file) {
  const r = await runNode(['--import', 'tsx', '--test', '--test-timeout=300000', '--test-reporter=spec', file], { ...process.env, VIGIL_TEST_PG_URL: pg.url });
  const count = (name) => Number(r.output.match(new RegExp(`^ℹ ${name} (\\d+)$`, 'm'))?.[1] ?? 0);
  return { file, ...r, tests: count('tests'), pass: count('pass'), fail: count('fail'), skipped: count('skipped'), cancelled: count('cancelled') };
}

/** The linter, then the formatter's check (npm run format:check), over the whole tree; resolves like runFile. */
async function runLint() {
  const eslint = await runNode(['node_modules/eslint/bin/eslint.js', '--max-warnings', '0', '.']);
  const prettier = await runNode([
    'node_modules/prettier/bin/prettier.cjs',
    '--check',
    '--log-level',
    'warn',
    '{src,tests,bench,scripts,bin}/**/*.{ts,js,mjs,cjs}',
    '*.{js,cjs}',
  ]);
  const output = `${eslint.output || 'no lint finding\n'}${prettier.code === 0 ? 'every file formatted (prettier --check)\n' : `not formatted (run npm run format):\n${prettier.output}`}`;
  return {
    file: 'lint (eslint ., prettier --check)',
    code: eslint.code || prettier.code,
    seconds: eslint.seconds + prettier.seconds,
    output,
    tests: 0,
    pass: 0,
    fail: 0,
    skipped: 0,
    cancelled: 0,
  };
}

const results = [];
const wallStart = performance.now();
const linted = lint
  ? runLint().then((r) => {
      process.stdout.write(`\n# ${r.file}: ${r.code === 0 ? 'ok' : 'FAILED'} in ${r.seconds.toFixed(1)} s\n`);
      process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
      return r;
    })
  : Promise.resolve(null);
async function worker() {
  while (queue.length && !stopping) {
    const file = queue.shift();
    const r = await runFile(file);
    results.push(r);
    const status = r.code === 0 ? 'ok' : 'FAILED';
    process.stdout.write(`\n# ${file}: ${status} in ${r.seconds.toFixed(1)} s (${results.length}/${files.length})\n`);
    process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
  }
}
await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
const lintResult = await linted;
pg.stop();

const sum = (k) => results.reduce((n, r) => n + r[k], 0);
const failed = [...results, ...(lintResult ? [lintResult] : [])].filter((r) => r.code !== 0);
const wall = (performance.now() - wallStart) / 1000;
console.log(`\n# files ${results.length}, failed ${failed.length}`);
console.log(`# tests ${sum('tests')}, pass ${sum('pass')}, fail ${sum('fail')}, cancelled ${sum('cancelled')}, skipped ${sum('skipped')}`);
console.log(
  `# wall ${wall.toFixed(0)} s with ${concurrency} at a time; slowest: ${[...results]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 5)
    .map((r) => `${r.file} ${r.seconds.toFixed(0)} s`)
    .join(', ')}`,
);
if (lintResult) console.log(`# lint ${lintResult.code === 0 ? 'clean' : 'FAILED'} in ${lintResult.seconds.toFixed(0)} s, beside the test files`);
for (const r of failed) {
  console.log(`# FAILED ${r.file} (exit ${r.code})`);
  // again at the end, where a log cut to its tail still shows why: the spec reporter's summary of the failures
  const at = r.output.lastIndexOf('✖ failing tests:');
  const why = at >= 0 ? r.output.slice(at) : r.output.slice(-4000);
  process.stdout.write(`${why.length > 6000 ? `${why.slice(0, 6000)}\n…` : why}\n`);
}

if (filters.length === 0 && failed.length === 0) {
  const out = {};
  for (const r of [...results].sort((a, b) => a.file.localeCompare(b.file))) out[r.file] = Math.round(r.seconds * 10) / 10;
  writeFileSync(DURATIONS, `${JSON.stringify(out, null, 2)}\n`);
}
process.exit(failed.length ? 1 : 0);
