import type pino from 'pino';
import { loadConfig } from './platform/config/index.ts';
import { createProcessLogger } from './platform/lib/index.ts';
import type { FastifyInstance } from 'fastify';
import { createContext, type VigilContext } from './context.ts';
import { DrainState } from './platform/metrics/index.ts';
import { buildApp } from './app.ts';
import { seedDemo } from './demo/seed.ts';

/** `npm start`: the service on embedded SQLite (or PostgreSQL with DATABASE_URL). */
async function main() {
  const config = loadConfig();
  const log = createProcessLogger({ level: config.logLevel, nodeId: config.nodeId });
  const ctx = await createContext(config, { log });
  const seeded = config.seedDemo ? await seedDemo(ctx) : null;
  const drain = new DrainState();
  const app = await buildApp(ctx, { loggerInstance: log, drain });
  // before listening: a signal that arrives as soon as the port is open must drain, not kill
  installGracefulShutdown(app, ctx, log, drain, config.http);
  await ctx.start();
  await app.listen({ port: config.port, host: config.host });
  const base = `http://localhost:${(app.server.address() as { port: number }).port}`;
  process.stdout.write(`\nVigil web console: ${base}/console  (sign in with an API key)\n`);
  if (seeded) {
    const lobby = seeded.streams[0];
    process.stdout.write(
      [
        '',
        'Vigil demo data created (shown once; keys are stored only as hashes):',
        `  organization key (Surface B, sandbox): ${seeded.org.key}`,
        `  household key    (Surface A, sandbox): ${seeded.household.key}  (owner: lifts boundaries, manages keys)`,
        '',
        'Try:',
        `  curl -s ${base}/v1/streams -H "Authorization: Bearer ${seeded.org.key}"`,
        `  curl -s ${base}/v1/scenes/${lobby.scene_id}/query -H "Authorization: Bearer ${seeded.org.key}" \\`,
        `    -H 'Content-Type: application/json' \\`,
        `    -d '{"stream_id":"${lobby.id}","query":"How many people are in the lobby right now?","window":"15m"}'`,
        '',
      ].join('\n') + '\n',
    );
  }
}

/**
 * SIGTERM (service managers, `npm start` — its script execs node so npm's forwarded signal
 * reaches us) and SIGINT (Ctrl-C) drain the service (docs/deployment.md, "Rolling restarts"):
 * /readyz turns 503 at once and the node keeps serving for the drain delay, so a load balancer
 * takes it out of rotation before anything is refused; then it stops accepting connections, lets
 * in-flight requests finish for up to the grace period, cuts what is left, stops sources and
 * workers, closes the database and exits 0. A repeated signal (a terminal sends SIGINT to npm and
 * node alike) does not start a second shutdown.
 */
function installGracefulShutdown(
  app: FastifyInstance,
  ctx: VigilContext,
  log: pino.Logger,
  drain: DrainState,
  { shutdownGraceMs: graceMs, drainDelayMs }: { shutdownGraceMs: number; drainDelayMs: number },
) {
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    drain.start();
    log.info({ signal, graceMs, drainDelayMs }, 'shutting down: draining in-flight requests');
    if (drainDelayMs > 0) await new Promise((r) => setTimeout(r, drainDelayMs));
    const cut = setTimeout(() => {
      log.warn('grace period over: closing the connections still open');
      app.server.closeAllConnections();
    }, graceMs);
    // a shutdown that hangs past the grace period and a margin is a bug; do not stay up half-closed
    const giveUp = setTimeout(() => {
      log.error('shutdown did not finish; exiting');
      process.exit(1);
    }, graceMs + 15_000);
    giveUp.unref();
    try {
      await app.close();
      clearTimeout(cut);
      await ctx.close();
      log.info('stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
