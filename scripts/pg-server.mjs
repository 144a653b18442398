// Starts a throwaway PostgreSQL 15 server for tests: initdb in a temp dir, pg_ctl on a free
// loopback port, trust auth. PostgreSQL refuses to run as root, so as root it runs as the
// `postgres` system user (Debian's postgresql package creates it).
import { mkdtempSync, rmSync, chownSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';

function findBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) throw new Error('PostgreSQL is not installed (apt-get install postgresql-15)');
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'initdb'))) return join(root, v, 'bin');
  throw new Error('no initdb under /usr/lib/postgresql');
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

export async function startPostgres() {
  const bin = findBin();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (cmd, args) => {
    const full = join(bin, cmd);
    if (asRoot) return execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe' });
    return execFileSync(full, args, { stdio: 'pipe' });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'vigil', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    url: `postgres://vigil@127.0.0.1:${port}/postgres`,
    port,
    /** the cluster's data directory (its postmaster.pid names the server process) */
    dataDir: data,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
