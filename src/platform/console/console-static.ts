import type { FastifyPluginAsync } from 'fastify';
import helmet from '@fastify/helmet';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const WEB_DIR = fileURLToPath(new URL('./web/', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
};

/** What the page's cookie holds: a live session, one that ended (expired, signed out, key revoked), or none. */
export type SessionState = 'active' | 'ended' | 'none';

interface Asset {
  type: string;
  body: Buffer;
}

function typeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.'));
  return TYPES[ext] ?? 'application/octet-stream';
}

/** Where an npm package is installed (its package.json may not be exported, so find it from its entry). */
function packageDir(name: string): string {
  const require = createRequire(import.meta.url);
  let dir = dirname(require.resolve(name));
  while (!dir.endsWith(`node_modules/${name}`)) dir = dirname(dir);
  return dir;
}

/**
 * The browser modules the console imports, straight from node_modules (no CDN, no
 * build step). Preact's hooks import the bare specifier "preact", which a browser cannot resolve
 * without an import map (an inline script the CSP forbids), so it is pointed at our copy.
 */
function vendorAssets(): Map<string, Asset> {
  const preact = packageDir('preact');
  const js = (p: string, rewrite?: (s: string) => string): Asset => {
    const text = readFileSync(p, 'utf8');
    return { type: TYPES['.js'], body: Buffer.from(rewrite ? rewrite(text) : text) };
  };
  const toPreact = (s: string) => s.replace(/from\s*"preact"/g, 'from"/console/vendor/preact.mjs"');
  const uplot = packageDir('uplot');
  return new Map<string, Asset>([
    ['preact.mjs', js(join(preact, 'dist/preact.mjs'))],
    ['hooks.mjs', js(join(preact, 'hooks/dist/hooks.mjs'), toPreact)],
    ['htm.mjs', js(join(packageDir('htm'), 'dist/htm.mjs'))],
    ['uPlot.esm.js', js(join(uplot, 'dist/uPlot.esm.js'))],
    ['uPlot.min.css', { type: TYPES['.css'], body: readFileSync(join(uplot, 'dist/uPlot.min.css')) }],
  ]);
}

function appAssets(): Map<string, Asset> {
  const out = new Map<string, Asset>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (TYPES[name.slice(name.lastIndexOf('.'))]) out.set(relative(WEB_DIR, p).split('\\').join('/'), { type: typeOf(name), body: readFileSync(p) });
    }
  };
  walk(WEB_DIR);
  return out;
}

/**
 * The console's strict Content-Security-Policy: scripts, styles, images and
 * connections from this server only; no inline script or style, no framing, no plugins.
 */
export const CONSOLE_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Serves the console at /console: a fixed set of files read once at start (the app
 * under src/console/web and the vendored modules), never a path taken from the request, with
 * helmet's security headers on every one of them.
 */
export const consoleStaticRoutes =
  (opts: { sessionState: (cookieHeader: string | undefined) => Promise<SessionState> }): FastifyPluginAsync =>
  async (app) => {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP_DIRECTIVES },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'no-referrer' },
    });
    const files = appAssets();
    const vendor = vendorAssets();
    const index = files.get('index.html')!;
    const send = (asset: Asset | undefined) => async (_req: unknown, reply: import('fastify').FastifyReply) => {
      if (!asset) return reply.callNotFound();
      return reply.type(asset.type).header('cache-control', 'no-cache').send(asset.body);
    };
    // /console redirects to /console/, so the console is inside its service worker's scope (a worker
    // whose scope is /console/ controls neither /console nor a notification's tap on it); docs/decisions.md,
    // "The console lives at /console/"
    app.get('/console', { schema: { hide: true } }, async (req, reply) => {
      const q = req.url.indexOf('?');
      return reply.redirect(`/console/${q === -1 ? '' : req.url.slice(q)}`, 308);
    });
    // the page says whether its cookie holds a live session, so a signed-out load asks nothing it
    // knows will be refused (docs/decisions.md, "A console load without errors")
    const page = async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
      const state = await opts.sessionState(req.headers.cookie);
      const body = index.body.toString('utf8').replace('<meta name="vigil-session" content="none">', `<meta name="vigil-session" content="${state}">`);
      return reply.type(index.type).header('cache-control', 'no-store').send(body);
    };
    app.get('/console/', { schema: { hide: true } }, page);
    // browsers ask for /favicon.ico on pages that name no icon (the API's own pages, a JSON answer opened in a tab)
    const icon = files.get('icons/icon-192.png');
    app.get('/favicon.ico', { schema: { hide: true } }, send(icon));
    // the installable console (docs/decisions.md, "Notifications through the outbox"): the manifest,
    // and the service worker served from /console/ so its scope is the whole console
    app.get('/console/manifest.webmanifest', { schema: { hide: true } }, send(files.get('manifest.webmanifest')));
    app.get('/console/sw.js', { schema: { hide: true } }, async (req, reply) => {
      reply.header('service-worker-allowed', '/console/');
      return send(files.get('sw.js'))(req, reply);
    });
    app.get<{ Params: { '*': string } }>('/console/app/*', { schema: { hide: true } }, (req, reply) => send(files.get(req.params['*']))(req, reply));
    app.get<{ Params: { '*': string } }>('/console/vendor/*', { schema: { hide: true } }, (req, reply) => send(vendor.get(req.params['*']))(req, reply));
  };
