import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { actorOf, principalOf, withErrors } from '../http/index.ts';
import { VigilError } from '../lib/index.ts';
import { cameOverHttps, clearedSessionCookie, consoleSessionOf, sessionCookie } from './console-auth.ts';
import { CreateConsoleSessionBody, ConsoleSignOutSchema } from './console-session.schemas.ts';
import { toSessionView, type ConsoleSessionService } from './console-session.service.ts';

const tags = ['Console'];
const security = [{ bearerAuth: [] }];

/** Sign-in, who-am-I and sign-out of the web console; any integrator may use them too. */
export const consoleSessionRoutes =
  (sessions: ConsoleSessionService, publicBaseUrl: string): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/v1/console/sessions',
      {
        // noReplay: a replayed answer would not set the cookie, and the token is never stored
        config: { surface: 'any', noReplay: true },
        schema: {
          tags,
          security,
          operationId: 'createConsoleSession',
          summary: 'Exchange an API key for a console session cookie',
          description:
            'Send the API key as `Authorization: Bearer`; the answer sets the `vigil_console` cookie (HttpOnly, SameSite=Strict, Secure over HTTPS, 8 hours). ' +
            'The session has exactly the key’s capabilities and locations and ends when the key is revoked. Requests with the cookie that change state must send `X-Vigil-Console: 1` ' +
            '(403 csrf_check_failed otherwise). A session cannot mint another session.',
          body: CreateConsoleSessionBody,
          response: withErrors({ 201: Type.Ref('ConsoleSession') }),
        },
      },
      async (req, reply) => {
        if (consoleSessionOf(req)) {
          throw new VigilError('invalid_api_key', 'Sign in with an API key (Authorization: Bearer <key>), not with a console session.', {
            param: 'Authorization',
          });
        }
        const out = await sessions.create(principalOf(req), actorOf(req), req.body.operator ?? null);
        reply.header('set-cookie', sessionCookie(out.token, out.maxAgeS, cameOverHttps(req, publicBaseUrl)));
        reply.header('cache-control', 'no-store');
        return reply.code(201).send(out.view);
      },
    );

    app.get(
      '/v1/console/session',
      {
        config: { surface: 'any' },
        schema: {
          tags,
          security,
          operationId: 'getConsoleSession',
          summary: 'Who the request acts as: the session (if any), its key, capabilities and locations',
          response: withErrors({ 200: Type.Ref('ConsoleSession') }),
        },
      },
      async (req) => toSessionView(principalOf(req), consoleSessionOf(req)),
    );

    app.delete(
      '/v1/console/session',
      {
        config: { surface: 'any' },
        schema: {
          tags,
          security,
          operationId: 'deleteConsoleSession',
          summary: 'Sign out: revoke this console session (with an API key: every console session of the key)',
          response: withErrors({ 200: ConsoleSignOutSchema }),
        },
      },
      async (req, reply) => {
        const session = consoleSessionOf(req);
        const revoked = await sessions.revoke(principalOf(req), actorOf(req), session?.id ?? null);
        if (session) reply.header('set-cookie', clearedSessionCookie(cameOverHttps(req, publicBaseUrl)));
        return { object: 'console_sign_out' as const, revoked_sessions: revoked };
      },
    );
  };
