import { startCluster, type LocalCluster } from '../scripts/cluster-lib.mjs';
import { figure, writeResult, type Figure } from './machine.ts';

/**
 * Availability under steady load through HAProxy, real processes as `npm run cluster` starts them
 * (PostgreSQL + Redis + three Vigil nodes + HAProxy; docs/deployment.md, "Rolling restarts"):
 *
 * - load: BENCH_AVAIL_READERS loops of `GET /v1/scenes/{id}`, BENCH_AVAIL_WRITERS loops of
 *   `POST /v1/sandbox/detections` (each a durable detection with its audit entry), and one loop of
 *   streamed household conversations (`Accept: text/event-stream`, read to `conversation.completed`);
 * - a rolling restart: each node in turn gets SIGTERM, exits, is started again and rejoins before the
 *   next; target 0 failed requests;
 * - `kill -9` of one node under the same load; target: no more failures than requests in flight at
 *   the kill (the in-flight count is over the whole cluster, so it bounds those on the killed node).
 *
 * A request fails when it gets no answer, a status other than the expected one, or (a stream) ends
 * without `conversation.completed`.
 */
const READERS = Number(process.env.BENCH_AVAIL_READERS ?? 4);
const WRITERS = Number(process.env.BENCH_AVAIL_WRITERS ?? 2);
const STEADY_S = Number(process.env.BENCH_AVAIL_STEADY_S ?? 10);
const AFTER_KILL_S = Number(process.env.BENCH_AVAIL_AFTER_KILL_S ?? 15);
/** VIGIL_DRAIN_DELAY_MS of the nodes; 0 shows what the drain delay is for */
const DRAIN_MS = Number(process.env.BENCH_AVAIL_DRAIN_MS ?? 2_500);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Tally {
  ok: number;
  failed: number;
  /** failure kinds: an HTTP status, `network: <message>`, or `stream ended early` */
  kinds: Record<string, number>;
}
const tally = (): Tally => ({ ok: 0, failed: 0, kinds: {} });

class Load {
  private phase: Tally = tally();
  private stopping = false;
  private loops: Promise<void>[] = [];
  inFlight = 0;

  constructor(
    private readonly c: LocalCluster,
    private readonly sceneId: string,
    private readonly streamId: string,
  ) {}

  start(): void {
    for (let i = 0; i < READERS; i++) this.loops.push(this.loop(() => this.read()));
    for (let i = 0; i < WRITERS; i++) this.loops.push(this.loop((n) => this.write(n)));
    this.loops.push(this.loop(() => this.converse()));
  }

  /** the tally since the last call, and a fresh one from now */
  cut(): Tally {
    const t = this.phase;
    this.phase = tally();
    return t;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
  }

  private async loop(one: (n: number) => Promise<string | null>): Promise<void> {
    for (let n = 0; !this.stopping; n++) {
      this.inFlight++;
      let failure: string | null;
      try {
        failure = await one(n);
      } catch (err) {
        failure = `network: ${(err as Error).cause ? String(((err as Error).cause as Error).message ?? (err as Error).cause) : (err as Error).message}`;
      } finally {
        this.inFlight--;
      }
      const t = this.phase;
      if (failure === null) t.ok++;
      else {
        t.failed++;
        t.kinds[failure] = (t.kinds[failure] ?? 0) + 1;
        await sleep(50);
      }
    }
  }

  private async read(): Promise<string | null> {
    const res = await fetch(`${this.c.url}/v1/scenes/${this.sceneId}`, {
      headers: { authorization: `Bearer ${this.c.keys.org}` },
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    return res.status === 200 ? null : String(res.status);
  }

  private async write(n: number): Promise<string | null> {
    const res = await fetch(`${this.c.url}/v1/sandbox/detections`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.c.keys.org}`, 'content-type': 'application/json' },
      body: JSON.stringify({ stream_id: this.streamId, type: 'person_count', value: n % 20 }),
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    return res.status === 201 ? null : String(res.status);
  }

  private async converse(): Promise<string | null> {
    const res = await fetch(`${this.c.url}/v1/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.c.keys.household}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      // a question: it never changes state, so the loop can repeat it
      body: JSON.stringify({ message: 'Is anyone at the front door right now?' }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status !== 200) return String(res.status);
    return text.includes('event: conversation.completed') ? null : 'stream ended early';
  }
}

async function json<T>(c: LocalCluster, key: string, path: string): Promise<T> {
  const res = await fetch(`${c.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const c = await startCluster({ nodes: 3, drainDelayMs: DRAIN_MS, env: { VIGIL_RATE_LIMIT_PER_MINUTE: '1000000', VIGIL_AUTH_FAILURES_PER_MINUTE: '1000000' } });
let steady: Tally, rolling: Tally, killed: Tally;
let rollingSeconds: number;
let inFlightAtKill: number;
const restartSeconds: number[] = [];
try {
  const streams = await json<{ data: { id: string; scene_id: string }[] }>(c, c.keys.org, '/v1/streams?limit=10');
  const stream = streams.data[0];
  const load = new Load(c, stream.scene_id, stream.id);
  load.start();
  await sleep(STEADY_S * 1000);
  steady = load.cut();

  const rollStarted = Date.now();
  for (const node of c.nodes) {
    const t0 = Date.now();
    await node.stop();
    // a loaded machine can take longer than start()'s own two minutes to import and open the port
    await node.start().catch(() => node.ready(600_000));
    // HAProxy puts it back after one good check (inter 1 s, rise 1)
    await sleep(2_000);
    restartSeconds.push(Number(((Date.now() - t0) / 1000).toFixed(1)));
  }
  rollingSeconds = (Date.now() - rollStarted) / 1000;
  rolling = load.cut();

  const victim = c.nodes[1];
  inFlightAtKill = load.inFlight;
  await victim.kill9();
  await sleep(AFTER_KILL_S * 1000);
  killed = load.cut();
  await load.stop();
  await victim.start().catch(() => victim.ready(600_000));
} finally {
  await c.stop();
}

const rate = (t: Tally) => (t.ok + t.failed === 0 ? 1 : t.ok / (t.ok + t.failed));
const figures: Figure[] = [
  figure(
    'failed requests during a rolling restart of 3 nodes through HAProxy',
    rolling!.failed,
    'requests',
    'lower',
    { none: `a target of 0: ${rolling!.ok} requests answered during the restart (${rollingSeconds!.toFixed(0)} s)` },
    { value: 0 },
  ),
  figure(
    'failed requests after kill -9 of one node',
    killed!.failed,
    'requests',
    'lower',
    { name: 'requests in flight on the whole cluster at the kill', value: inFlightAtKill!, unit: 'requests' },
    { value: inFlightAtKill! },
  ),
  figure('requests answered during steady load (no restart)', steady!.ok, 'requests', 'higher', { none: `${steady!.failed} failed in ${STEADY_S} s` }),
];
writeResult('availability', 'availability-rolling-restart', figures, {
  load: { drain_delay_ms: DRAIN_MS, readers: READERS, writers: WRITERS, conversation_streams: 1, steady_seconds: STEADY_S, after_kill_seconds: AFTER_KILL_S },
  steady: { ...steady!, success_rate: rate(steady!) },
  rolling_restart: { ...rolling!, seconds: Number(rollingSeconds!.toFixed(1)), per_node_seconds: restartSeconds, success_rate: rate(rolling!) },
  kill9: { ...killed!, in_flight_at_kill: inFlightAtKill!, success_rate: rate(killed!) },
  notes: [
    'real processes: PostgreSQL (throwaway, fsync=off), redis-server, three Vigil nodes (node --import tsx src/main.ts), HAProxy 2.6 as scripts/cluster-lib.mjs configures it',
    'rolling restart: SIGTERM → /healthz 503 for VIGIL_DRAIN_DELAY_MS (load.drain_delay_ms) while still serving → HAProxy takes the node out after two failed checks → the node closes its port, finishes in-flight requests, exits → started again → back after one good check',
    'kill -9: HAProxy retries a GET or HEAD whose connection failed or got no answer on another node; a POST in flight on the killed node is not replayed and fails',
  ],
});
