import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CPU time so far of a throwaway PostgreSQL server: the postmaster and its children (backends,
 * WAL writer, checkpointer, autovacuum), from /proc, in µs.
 */
export function postgresCpu(dataDir: string): () => number {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const tickUs = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
  return () => {
    let ticks = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // the process ended meanwhile
      }
      // fields after the command (which may contain spaces) closed by ')': state ppid … utime(14)
      // stime(15) cutime(16) cstime(17); the postmaster's cutime/cstime hold the backends that
      // ended and were reaped, so a backend ending during a part does not take its CPU with it
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(entry) === postmaster) ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      else if (Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
    }
    return ticks * tickUs;
  };
}
