import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Starts `src/main.ts` on embedded SQLite with a fresh data directory and no demo, plus `env`,
 * and waits for it to exit: for settings that must stop the server at start with a message.
 */
export async function runServerUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      VIGIL_DATA_DIR: mkdtempSync(join(tmpdir(), 'vigil-data-')),
      VIGIL_SEED_DEMO: '0',
      DATABASE_URL: '',
      REDIS_URL: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (b: Buffer) => (output += b));
  child.stderr.on('data', (b: Buffer) => (output += b));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  return { code, output };
}
