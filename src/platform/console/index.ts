import { defineServiceModule, token } from '../lib/index.ts';
import { defineApiModule } from '../http/index.ts';
import { CLOCK } from '../time/index.ts';
import { DATABASE } from '../db/index.ts';
import { AUDIT } from '../audit/index.ts';
import { COORDINATION } from '../coordination/index.ts';
import { ConsoleSessionSchema as ConsoleSessionSchemaV } from './console-session.schemas.ts';
import { ConsoleSessionService as ConsoleSessionServiceT, type ConsoleSessionService } from './console-session.service.ts';
import type { FastifyInstance } from 'fastify';
import { consoleSessionRoutes } from './console-session.routes.ts';
import { consoleStaticRoutes } from './console-static.ts';

export { ConsoleSessionService } from './console-session.service.ts';
export { ConsoleSessionSchema } from './console-session.schemas.ts';
export { consoleCookieAuth, consoleSessionOf, heldSessionOf } from './console-auth.ts';
import { sessionStateOf } from './console-auth.ts';

/** The web console: its sign-in API under /v1/console and the app under /console. */
export async function registerConsole(app: FastifyInstance, deps: { sessions: ConsoleSessionService; publicBaseUrl: string }): Promise<void> {
  await app.register(consoleSessionRoutes(deps.sessions, deps.publicBaseUrl));
  await app.register(consoleStaticRoutes({ sessionState: (cookie) => sessionStateOf(deps.sessions, cookie) }));
}

export const CONSOLE_SESSIONS = token<ConsoleSessionServiceT>('consoleSessions');

export const consoleServices = defineServiceModule({
  name: 'console',
  provide: (c) =>
    c.provide(
      CONSOLE_SESSIONS,
      (c) =>
        new ConsoleSessionServiceT({
          database: c.get(DATABASE),
          clock: c.get(CLOCK),
          audit: c.get(AUDIT),
          invalidation: c.get(COORDINATION).invalidation,
          heldStreams: c.get(COORDINATION).heldStreams,
        }),
    ),
});

/** The console's HTTP face: the sign-in API under /v1/console and the app under /console. */
export const consoleApi = defineApiModule({
  name: 'console',
  tags: [{ name: 'Console', description: 'Web console sign-in: exchange a key for a session cookie, who am I, sign out' }],
  schemas: [ConsoleSessionSchemaV],
  routes: (c: { consoleSessions: ConsoleSessionServiceT; config: { publicBaseUrl: string } }) => async (app) => {
    await registerConsole(app, { sessions: c.consoleSessions, publicBaseUrl: c.config.publicBaseUrl });
  },
});
