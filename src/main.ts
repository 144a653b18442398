import pino from 'pino';
import { loadConfig } from './config.ts';
import { createContext } from './context.ts';
import { buildApp } from './app.ts';
import { seedDemo } from './demo/seed.ts';

/** `npm start`: the service on embedded SQLite (or PostgreSQL with DATABASE_URL). */
async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const ctx = await createContext(config, { log });
  const seeded = config.seedDemo ? await seedDemo(ctx) : null;
  const app = await buildApp(ctx, { logger: { level: config.logLevel } });
  await ctx.start();
  await app.listen({ port: config.port, host: config.host });
  const base = `http://localhost:${(app.server.address() as { port: number }).port}`;
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
  const shutdown = async (signal: string) => {
    log.info({ signal }, 'shutting down');
    await app.close();
    await ctx.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
