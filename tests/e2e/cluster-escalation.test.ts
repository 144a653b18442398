import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase } from '../helpers/harness.ts';

/**
 * Timers that run once cluster-wide, with real processes: two Vigil servers on one PostgreSQL, real clocks. An escalation
 * step falls due on both nodes at once and happens once; after `kill -9` of the node that triggered
 * the run, the other node takes the next step on time, once.
 */

interface Node {
  proc: ChildProcess;
  base: string;
  out: () => string;
}

/** Starts `npm start`'s server on the database; it is added to `nodes` at once, so it is stopped even if it never comes up. */
async function startNode(nodes: Node[], databaseUrl: string, seed: boolean): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-cluster-e2e-'));
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      VIGIL_DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      VIGIL_SEED_DEMO: seed ? '1' : '0',
      VIGIL_RUN_SOURCES: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  let out = '';
  const node: Node = { proc, base: '', out: () => out };
  nodes.push(node);
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const check = () => {
      const m = /Vigil web console: http:\/\/localhost:(\d+)\/console/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${m[1]}`);
      }
    };
    proc.stdout!.on('data', check);
    proc.stderr!.on('data', check);
    proc.on('exit', () => reject(new Error(`server exited:\n${out}`)));
  });
  node.base = base;
  return node;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test(
  'two server processes on one PostgreSQL: each escalation step once; after kill -9 of one, the other takes the next step on time',
  { timeout: 180_000 },
  async (t) => {
    const dbase = await createTestDatabase('postgres');
    const url = dbase.overrides.databaseUrl!;
    const client = new pg.Client({ connectionString: url });
    const nodes: Node[] = [];
    try {
      const a = await startNode(nodes, url, true);
      await sleep(300);
      const orgKey = /organization key \(Surface B, sandbox\): (vk_test_\w+)/.exec(a.out())?.[1];
      assert.ok(orgKey, a.out());
      const call = async (node: Node, method: string, path: string, body?: unknown) => {
        const res = await fetch(`${node.base}${path}`, {
          method,
          headers: { authorization: `Bearer ${orgKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        const json = await res.json();
        assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
        return json;
      };
      // the escalation delay a node schedules with comes from its automation cache; without Redis
      // a change does not reach a running node, so node b starts after it
      await call(a, 'PATCH', '/v1/automation', { escalation_after_s: 10 });
      const b = await startNode(nodes, url, false);
      const streams = await call(a, 'GET', '/v1/streams');
      const incident = await call(a, 'POST', '/v1/incidents', { stream_id: streams.data[0].id });
      const t0 = Date.now();
      const run = await call(a, 'POST', `/v1/incidents/${incident.id}/protocol`, { protocol_type: 'intrusion', notify_responders: false, escalation_level: 1 });
      await client.connect();
      const steps = async () =>
        (
          await client.query<{ level: number }>(
            `select (data::json->'after'->>'escalation_level')::int as level from audit_log where resource_id = $1 and action = 'protocol_run.escalated' order by seq`,
            [run.id],
          )
        ).rows.map((r) => r.level);
      const waitForLevel = async (level: number, deadline: number) => {
        while (Date.now() < deadline) {
          // read from the database: the key's rate limit (60 a minute) is not for polling
          const row = await client.query<{ escalation_level: number }>('select escalation_level from protocol_runs where id = $1', [run.id]);
          if (row.rows[0]!.escalation_level >= level) return Date.now();
          await sleep(100);
        }
        throw new Error(`level ${level} not reached; steps ${JSON.stringify(await steps())}`);
      };

      // step 2 falls due on both live nodes at the same moment
      const second = await waitForLevel(2, t0 + 25_000);
      assert.ok(second - t0 >= 9_500, 'not before its time');
      await sleep(1_500);
      assert.deepEqual(await steps(), [2], 'one step, though both nodes were up');

      // the triggering node dies; the other takes the next step about 10 s after the last
      a.proc.kill('SIGKILL');
      const third = await waitForLevel(3, second + 25_000);
      assert.ok(third - second < 14_000, `step 3 came ${third - second} ms after step 2`);
      t.diagnostic(`step 2 ${second - t0} ms after the trigger (both nodes up); step 3 ${third - second} ms after step 2 (trigger node killed)`);
      await sleep(1_500);
      assert.deepEqual(await steps(), [2, 3]);
      assert.equal((await call(b, 'GET', `/v1/protocol-runs/${run.id}`)).escalation_level, 3);
      const job = await client.query(`select run_count, last_done_by from scheduled_jobs where kind = 'protocol.escalation' and job_key = $1`, [run.id]);
      assert.equal(job.rows[0].run_count, 2);
    } finally {
      await client.end().catch(() => undefined);
      for (const n of nodes) {
        if (n.proc.exitCode === null && n.proc.signalCode === null) {
          const exited = new Promise((r) => n.proc.on('exit', r));
          n.proc.kill('SIGTERM');
          await exited;
        }
      }
      await dbase.drop();
    }
  },
);
