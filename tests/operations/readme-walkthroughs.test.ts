import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The README's walkthroughs run as written (docs/decisions.md, "The README block runner"): every
 * sh/bash block of README.md is marked `<!-- readme-test: run -->` or
 * `<!-- readme-test: skip: <why> -->` right above it, and an unmarked block fails this test. The
 * run blocks go, command by command, into one bash session, as a reader types them, against a
 * real server started as `npm start` starts it (a fresh data directory, the demo seeded,
 * VIGIL_WEBHOOK_ALLOW_PRIVATE=1 as the walkthrough says). The only change to a command is the
 * port (`localhost:8080` → the server's free port). What a reader pastes from earlier output is
 * pasted the same way: a placeholder `prefix_…` takes the latest value with that prefix printed
 * so far, `vk_test_…` the key of the start-up line its comment names, and $STREAM, $SCENE,
 * $INCIDENT and $RUN what the prose says to take.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  line: number;
  marker: string | null;
  code: string;
}

function shellBlocks(text: string): Block[] {
  const lines = text.split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(sh|bash)\s*$/.exec(lines[i]);
    if (!open) {
      if (/^\s*```\S*\s*$/.test(lines[i])) {
        // another language's block: skip to its end
        for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]); i++);
      }
      continue;
    }
    const indent = open[1].length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^\s*```\s*$/.test(lines[j]); j++) body.push(lines[j].slice(indent));
    let marker: string | null = null;
    for (let k = i - 1; k >= Math.max(0, i - 2); k--) {
      const m = /<!--\s*readme-test:\s*(.+?)\s*-->/.exec(lines[k]);
      if (m) {
        marker = m[1];
        break;
      }
      if (lines[k].trim() !== '') break;
    }
    out.push({ line: i + 1, marker, code: body.join('\n') });
    i = j;
  }
  return out;
}

/** A block as the commands a reader enters one at a time: continuation lines joined, a heredoc kept whole, comments dropped. */
function commandsOf(code: string): string[] {
  const lines = code.split('\n');
  const cmds: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let cmd = lines[i];
    if (cmd.trim() === '' || cmd.trim().startsWith('#')) continue;
    while (cmd.endsWith('\\') && i + 1 < lines.length) cmd += '\n' + lines[++i];
    const here = /<<\s*'?(\w+)'?/.exec(cmd);
    if (here) {
      while (i + 1 < lines.length) {
        cmd += '\n' + lines[++i];
        if (lines[i] === here[1]) break;
      }
    }
    cmds.push(cmd);
  }
  return cmds;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

let dir: string;
let server: ChildProcess;
let serverOut = '';
let port: number;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-readme-'));
  // the reader's clone: `npx vigil` finds the package's own bin
  mkdirSync(join(dir, 'work', 'node_modules', '.bin'), { recursive: true });
  symlinkSync(join(ROOT, 'bin', 'vigil.mjs'), join(dir, 'work', 'node_modules', '.bin', 'vigil'));
  writeFileSync(join(dir, 'work', 'package.json'), '{"name":"readme-reader","private":true}\n');
  port = await freePort();
  // `npm start` is `node --import tsx src/main.ts`
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VIGIL_DATA_DIR: join(dir, 'data'),
      VIGIL_WEBHOOK_ALLOW_PRIVATE: '1',
      DATABASE_URL: '',
      LOG_LEVEL: 'warn',
      VIGIL_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => {
    serverOut += d;
  });
  server.stderr!.on('data', (d) => {
    serverOut += d;
  });
  const until = Date.now() + 120_000;
  while (!/household key/.test(serverOut)) {
    if (server.exitCode !== null || Date.now() > until) throw new Error(`the server did not start: ${serverOut}`);
    await new Promise((r) => setTimeout(r, 200));
  }
});

after(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One bash session, like a reader's terminal: commands in, their output (and background jobs' output) out. */
class Terminal {
  private proc: ChildProcess;
  private out = '';
  private err = '';
  /** everything printed so far, background jobs included */
  transcript = '';
  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.proc = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.proc.stdout!.on('data', (d) => {
      this.out += d;
      this.transcript += d;
    });
    this.proc.stderr!.on('data', (d) => {
      this.err += d;
    });
  }
  async run(cmd: string, timeoutMs = 60_000): Promise<{ code: number; out: string; err: string }> {
    const mark = `__readme_done_${Math.random().toString(36).slice(2)}__`;
    this.out = '';
    this.err = '';
    this.proc.stdin!.write(`${cmd}\nprintf '\\n${mark} %s\\n' "$?"\n`);
    const until = Date.now() + timeoutMs;
    let m: RegExpExecArray | null;
    while (!(m = new RegExp(`${mark} (\\d+)`).exec(this.out))) {
      if (Date.now() > until) throw new Error(`timed out: ${cmd}\n${this.out}\n${this.err}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return { code: Number(m[1]), out: this.out.slice(0, m.index), err: this.err };
  }
  close() {
    // the session and every background job it started (receivers)
    try {
      process.kill(-this.proc.pid!, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
}

test('every sh/bash block of README.md is marked run or skip (with the reason)', () => {
  const blocks = shellBlocks(README);
  assert.ok(blocks.length >= 20, `${blocks.length} blocks`);
  const unmarked = blocks.filter((b) => b.marker === null).map((b) => `README.md:${b.line}`);
  assert.deepEqual(unmarked, [], 'blocks with no <!-- readme-test: run --> or <!-- readme-test: skip: why --> above them');
  const bad = blocks.filter((b) => b.marker !== 'run' && !/^skip: \S.{8,}/.test(b.marker!)).map((b) => `README.md:${b.line} ${b.marker}`);
  assert.deepEqual(bad, [], 'a skip says why');
  const run = blocks.filter((b) => b.marker === 'run');
  console.log(`README: ${run.length} shell blocks run, ${blocks.length - run.length} skipped with a reason`);
});

test('the README walkthroughs marked run pass as written against a real server', { timeout: 600_000 }, async () => {
  const term = new Terminal(join(dir, 'work'), {
    PATH: `${join(dir, 'work', 'node_modules', '.bin')}:${process.env.PATH}`,
    HOME: dir,
    VIGIL_DATA_DIR: join(dir, 'data'),
    npm_config_update_notifier: 'false',
  });
  const seen: string[] = [];
  // ids and secrets look like prefix_<random>: letters, digits, _ and -, with a digit in them
  const ids = (text: string) => [...text.matchAll(/\b[a-z]+_[A-Za-z0-9_-]{8,}/g)].map((m) => m[0]).filter((v) => /\d/.test(v));
  /** what a reader can paste from an answer: of a list, its first (newest) item, as a reader takes it */
  const remember = (text: string) => {
    for (const line of text.split('\n')) {
      let v: any = null;
      try {
        v = JSON.parse(line.trim());
      } catch {
        /* text */
      }
      seen.push(...ids(v && v.object === 'list' && Array.isArray(v.data) ? JSON.stringify(v.data[0] ?? {}) : line));
    }
  };
  remember(serverOut);
  /** the latest value printed that starts with the placeholder's prefix (a reader pastes the one just shown) */
  const latest = (prefix: string) => [...seen].reverse().find((v) => v.startsWith(prefix) && v !== prefix);
  const paste = (cmd: string): string => {
    const comment = /#.*"([^"]+)" line/.exec(cmd);
    let out = cmd.replace(/\b((?:[a-z]+_)+)…/g, (all, prefix: string) => {
      if (prefix === 'vk_test_' && comment) {
        const line = serverOut.split('\n').find((l) => l.includes(comment[1]));
        const key = line && /vk_test_\S+/.exec(line)?.[0];
        assert.ok(key, `the start-up line "${comment[1]}"`);
        return key!;
      }
      const v = latest(prefix);
      assert.ok(v, `a value for ${all} printed before: ${cmd}`);
      return v!;
    });
    out = out.replace(/localhost:8080/g, `localhost:${port}`);
    return out;
  };
  let lobby: { id: string; scene_id: string } | null = null;
  const failures: string[] = [];
  try {
    for (const b of shellBlocks(README).filter((x) => x.marker === 'run')) {
      for (const raw of commandsOf(b.code)) {
        // what the prose asks the reader to take from earlier output
        const vars: string[] = [];
        if (/\$STREAM|\$SCENE/.test(raw) && lobby) vars.push(`STREAM=${lobby.id}`, `SCENE=${lobby.scene_id}`);
        if (/\$INCIDENT/.test(raw)) vars.push(`INCIDENT=${latest('incident_')}`);
        if (/\$RUN/.test(raw)) vars.push(`RUN=${latest('prot_')}`);
        if (vars.length) await term.run(vars.join(' ') + '; export STREAM SCENE INCIDENT RUN 2>/dev/null');
        const cmd = paste(raw);
        const r = await term.run(cmd);
        remember(r.out);
        const where = `README.md:${b.line}: ${raw.split('\n')[0]}`;
        if (r.code !== 0) failures.push(`${where}: exit ${r.code}: ${r.err || r.out}`.slice(0, 600));
        // an answer that is a problem (4xx/5xx) is a walkthrough that does not work
        for (const line of r.out.split('\n')) {
          const t = line.trim();
          if (!t.startsWith('{')) continue;
          let v: any;
          try {
            v = JSON.parse(t);
          } catch {
            continue;
          }
          if (typeof v.status === 'number' && v.status >= 400 && typeof v.code === 'string') failures.push(`${where}: ${v.status} ${v.code}: ${v.detail}`);
          const streams = v.object === 'list' && Array.isArray(v.data) ? v.data.filter((s: any) => s.location === 'north_lobby' && s.scene_id) : [];
          if (streams.length) lobby = streams[0];
        }
      }
    }
    // the walkthrough's receivers check every signature: the webhook's and the responder's deliveries say valid
    const until = Date.now() + 30_000;
    const delivered = (event: string, extra = '') => new RegExp(`^valid \\{.*"event":"${event.replace('.', '\\.')}".*${extra}`, 'm').test(term.transcript);
    // the webhook's deliveries, and the responder's own (signed with its signing_secret, on port 9001)
    while (!(delivered('incident.created') && delivered('protocol.triggered', '"responder":')) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 200));
    }
    const receiver = term.transcript.split('\n').filter((l) => /^(valid|INVALID) /.test(l));
    assert.ok(delivered('incident.created'), `the webhook's receiver printed: ${receiver.join('\n')}`);
    assert.ok(delivered('protocol.triggered', '"responder":'), `the responder's receiver printed: ${receiver.join('\n')}`);
    assert.deepEqual(
      receiver.filter((l) => l.startsWith('INVALID')),
      [],
      'no delivery fails its signature check',
    );
  } finally {
    term.close();
  }
  assert.deepEqual(failures, []);
});
