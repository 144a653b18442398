import type { FastifyInstance } from 'fastify';
import type { ConsoleSessionService } from './console-session.service.ts';
import { consoleSessionRoutes } from './console-session.routes.ts';
import { consoleStaticRoutes } from './console-static.ts';

export { ConsoleSessionService } from './console-session.service.ts';
export { ConsoleSessionSchema } from './console-session.schemas.ts';
export { consoleCookieAuth } from './console-auth.ts';

/** The web console (issue 13): its sign-in API under /v1/console and the app under /console. */
export async function registerConsole(app: FastifyInstance, deps: { sessions: ConsoleSessionService; publicBaseUrl: string }): Promise<void> {
  await app.register(consoleSessionRoutes(deps.sessions, deps.publicBaseUrl));
  await app.register(consoleStaticRoutes);
}
