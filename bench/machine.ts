/**
 * What every bench records beside its figures, so results compare across machines:
 * the machine (cores, CPU model, memory, load average at start and at end, Node, platform, git
 * commit) and, for each figure, the limit it is compared against measured in the same run on the
 * same machine, with the ratio between them.
 *
 * Result file shape (bench/results/NAME.json):
 *   { bench, machine, figures: Figure[], ...details }
 * where a Figure is { figure, value, unit, limit: { name, value, unit } | null, ratio, better, ... }
 * and ratio = value / limit.value (so for a latency the ratio is "times the floor", lower is better;
 * for a rate it is "share of the ceiling", higher is better; `better` says which). A figure without
 * a measurable limit has limit null, ratio null and `no_limit` saying why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem, freemem, platform, arch, release } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startPostgres } from '../scripts/pg-server.mjs';

export interface Limit {
  name: string;
  value: number;
  unit: string;
}

export interface Figure {
  figure: string;
  value: number;
  unit: string;
  limit: Limit | null;
  ratio: number | null;
  /** which direction is an improvement of value (and so of ratio) */
  better: 'lower' | 'higher';
  /** why no limit applies, when limit is null */
  no_limit?: string;
  /** the figure's target, when one is set */
  target?: { value: number; unit: string; met: boolean };
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));
const loads = () => loadavg().map((v) => round(v, 2));

function gitCommit(): { commit: string | null; dirty: boolean | null } {
  try {
    const cwd = join(import.meta.dirname, '..');
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    // bench/results/ changes with every run: only changes to the code count as dirty
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results'], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    return { commit, dirty: status.length > 0 };
  } catch {
    return { commit: null, dirty: null };
  }
}

/** Captured when a bench starts (import time of this module, or an explicit call). */
export interface MachineAtStart {
  started_at: string;
  cores: number;
  cpu_model: string;
  total_memory_mb: number;
  free_memory_mb_at_start: number;
  load_average_at_start: number[];
  node: string;
  platform: string;
  git_commit: string | null;
  git_dirty: boolean | null;
}

let atStart: MachineAtStart | null = null;

/** Records the machine and its load now; the first call wins, so call it before the bench's work. */
export function machineAtStart(): MachineAtStart {
  if (!atStart) {
    const git = gitCommit();
    atStart = {
      started_at: new Date().toISOString(),
      cores: availableParallelism(),
      cpu_model: cpus()[0]?.model ?? 'unknown',
      total_memory_mb: Math.round(totalmem() / 1048576),
      free_memory_mb_at_start: Math.round(freemem() / 1048576),
      load_average_at_start: loads(),
      node: process.version,
      platform: `${platform()} ${release()} ${arch()}`,
      git_commit: git.commit,
      git_dirty: git.dirty,
    };
  }
  return atStart;
}
// a bench that imports this module has its start recorded before it does any work
machineAtStart();

/** The machine record with the load average at the end, for the result file. */
export function machineRecord() {
  const start = machineAtStart();
  return {
    ...start,
    finished_at: new Date().toISOString(),
    load_average_at_end: loads(),
    // 1, 5 and 15 minute load averages; above `cores`, other processes competed for the CPU
    note: 'load averages are [1 min, 5 min, 15 min]; on a shared machine a load near or above cores means other work competed with the bench',
  };
}

/** CPU seconds of every descendant process of this one, now (from /proc; exited ones are gone). */
function descendantsCpuSeconds(hz: number): number {
  const parent = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ');
      parent.set(Number(name), Number(f[1]));
      cpu.set(Number(name), (Number(f[11]) + Number(f[12])) / hz);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === process.pid) {
        total += seconds;
        break;
      }
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine, all cores, from /proc/stat. */
function machineBusySeconds(hz: number): number {
  const [, ...f] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = f.map(Number);
  return (user + nice + system + irq + softirq + (steal || 0)) / hz;
}

export interface CpuShare {
  /** cores the whole machine kept busy, on average over the window */
  machine_cores: number;
  /** cores this process kept busy (all its threads: worker threads too) */
  self_cores: number;
  /** cores its descendant processes kept busy (e.g. ffmpeg) */
  children_cores: number;
  /** self_cores + children_cores */
  bench_cores: number;
  /** cores everything else kept busy: the competition the bench had (a child that exited mid-window counts here) */
  other_cores: number;
}

/**
 * The machine's CPU over a window, split into this bench (its threads and child processes) and
 * everything else. A bench that keeps every core busy raises the load average itself, so "quiet"
 * is judged by `other_cores`, not by the load. Linux only; elsewhere `stop()` returns null.
 */
export function watchCpu(): { stop(): CpuShare | null } {
  if (!existsSync('/proc/stat')) return { stop: () => null };
  const hz = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  const t0 = performance.now();
  const machine0 = machineBusySeconds(hz);
  const self0 = process.cpuUsage();
  const kids0 = descendantsCpuSeconds(hz);
  return {
    stop() {
      const wall = (performance.now() - t0) / 1000;
      const machine = machineBusySeconds(hz) - machine0;
      const cpu = process.cpuUsage(self0);
      const self = (cpu.user + cpu.system) / 1e6;
      const children = Math.max(0, descendantsCpuSeconds(hz) - kids0);
      const bench = self + children;
      return {
        machine_cores: round(machine / wall, 2),
        self_cores: round(self / wall, 3),
        children_cores: round(children / wall, 3),
        bench_cores: round(bench / wall, 2),
        other_cores: round(Math.max(0, machine - bench) / wall, 2),
      };
    },
  };
}

/** A figure and the limit it is compared against; ratio = value / limit.value. */
export function figure(
  name: string,
  value: number,
  unit: string,
  better: 'lower' | 'higher',
  limit: Limit | { none: string },
  target?: { value: number; unit?: string },
): Figure {
  const digits = Math.abs(value) >= 100 ? 1 : 3;
  const f: Figure = { figure: name, value: round(value, digits), unit, limit: null, ratio: null, better };
  if ('none' in limit) f.no_limit = limit.none;
  else {
    f.limit = { ...limit, value: round(limit.value, Math.abs(limit.value) >= 100 ? 1 : 3) };
    f.ratio = limit.value > 0 && Number.isFinite(value) ? round(value / limit.value, 3) : null;
  }
  if (target) f.target = { value: target.value, unit: target.unit ?? unit, met: better === 'lower' ? value <= target.value : value >= target.value };
  return f;
}

/** Writes bench/results/NAME.json as { bench, machine, figures, ...details } and prints the figures. */
export function writeResult(name: string, bench: string, figures: Figure[], details: Record<string, unknown> = {}): void {
  const full = { bench, machine: machineRecord(), figures, ...details };
  mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
  writeFileSync(join(import.meta.dirname, 'results', `${name}.json`), `${JSON.stringify(full, null, 2)}\n`);
  console.log(`\n${bench}: figures (ratio = value / limit)`);
  for (const f of figures) {
    const lim = f.limit ? `limit ${f.limit.value} ${f.limit.unit} (${f.limit.name}) → ratio ${f.ratio}` : `no limit: ${f.no_limit}`;
    console.log(`  ${f.figure}: ${f.value} ${f.unit}; ${lim}`);
  }
  console.log(
    `  machine: ${full.machine.cores} cores, load ${full.machine.load_average_at_start.join('/')} → ${full.machine.load_average_at_end.join('/')}, node ${full.machine.node}`,
  );
  console.log(`wrote bench/results/${name}.json`);
}

/** p-th percentile of an ascending array (nearest rank, as the benches have always used). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Runs a bench on embedded SQLite, then on a fresh database `name` of a throwaway PostgreSQL 15
 * (scripts/pg-server.mjs); when PostgreSQL cannot start, its run is skipped with a warning.
 */
export async function onSqliteThenPostgres<T>(name: string, run: (storage: 'sqlite' | 'postgres', databaseUrl: string | null) => Promise<T>): Promise<T[]> {
  const results = [await run('sqlite', null)];
  let server: { url: string; stop(): void } | null = null;
  try {
    server = await startPostgres();
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    results.push(await run('postgres', server.url.replace(/\/[^/]*$/, `/${name}`)));
  } catch (err) {
    console.warn(`postgres run skipped: ${(err as Error).message}`);
  } finally {
    server?.stop();
  }
  return results;
}
