import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type DialectName, type TestApp } from '../helpers/harness.ts';
import { seedDemo, type DemoSeed } from '../../src/demo/seed.ts';

/** Debian's chromium (`.ci/run` installs it); never a downloaded build. */
export const CHROMIUM = '/usr/bin/chromium';
export const ARTEFACTS = new URL('./artefacts/', import.meta.url);
export const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

export interface ConsoleApp {
  t: TestApp;
  base: string;
  seed: DemoSeed;
  browser: Browser;
  /** GET/POST/… with a bearer key against the real server */
  call(key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** a fresh browser context (its own cookies) at a viewport width */
  newPage(width?: keyof typeof WIDTHS): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  signIn(page: Page, key: string, operator?: string): Promise<void>;
  close(): Promise<void>;
}

/** Debian's chromium on a serving Vigil at `base`: fresh contexts at a viewport width, and the console's sign-in. */
export interface ConsoleBrowser {
  browser: Browser;
  /** a fresh browser context (its own cookies) at a viewport width */
  newPage(width?: keyof typeof WIDTHS): Promise<{ context: BrowserContext; page: Page; errors: string[] }>;
  signIn(page: Page, key: string, operator?: string): Promise<void>;
}

export interface FeedFrame {
  event: string;
  data: any;
}

/** An open GET /v1/events/stream over real HTTP, its frames collected as they arrive. */
export async function openEventFeed(base: string, key: string) {
  const ctrl = new AbortController();
  const res = await fetch(`${base}/v1/events/stream`, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' }, signal: ctrl.signal });
  const frames: FeedFrame[] = [];
  const reading = (async () => {
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buf += dec.decode(value, { stream: true });
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const raw = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const event = /^event: (.*)$/m.exec(raw)?.[1];
          const data = /^data: (.*)$/m.exec(raw)?.[1];
          if (event && data) frames.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      /* aborted */
    }
  })();
  return {
    res,
    frames,
    async waitFor(pred: (f: FeedFrame) => boolean, ms = 3000): Promise<FeedFrame> {
      const until = Date.now() + ms;
      for (;;) {
        const f = frames.find(pred);
        if (f) return f;
        if (Date.now() > until) throw new Error(`no such frame; got ${frames.map((x) => x.event).join(', ')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      ctrl.abort();
      await reading;
    },
  };
}

/** Requests of each page still in flight, apart from event streams (which stay open while the page shows). */
const inFlight = new WeakMap<Page, Set<unknown>>();
const EVENT_STREAM = /\/v1\/(home\/)?events\/stream/;

function trackRequests(page: Page): void {
  const open = new Set<unknown>();
  inFlight.set(page, open);
  page.on('request', (r) => {
    if (!EVENT_STREAM.test(r.url())) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/**
 * Resolves once the page has had no request in flight for `quietMs`, its open event stream aside.
 * Playwright's 'networkidle' counts that stream, so on a live page it only ever ends by timing out.
 */
export async function settled(page: Page, quietMs = 500, timeoutMs = 30_000): Promise<void> {
  const open = inFlight.get(page);
  if (!open) throw new Error('settled() needs a page made by newPage()');
  const deadline = Date.now() + timeoutMs;
  let quietSince = Date.now();
  while (Date.now() - quietSince < quietMs) {
    if (Date.now() > deadline) throw new Error(`the page still had ${open.size} request(s) in flight after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
    if (open.size > 0) quietSince = Date.now();
  }
}

export async function launchConsoleBrowser(base: string): Promise<ConsoleBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  mkdirSync(ARTEFACTS, { recursive: true });
  return {
    browser,
    async newPage(width = 'desktop') {
      const context = await browser.newContext({ viewport: WIDTHS[width], baseURL: base });
      const page = await context.newPage();
      trackRequests(page);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (m) => {
        if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) errors.push(m.text());
      });
      return { context, page, errors };
    },
    async signIn(page, key, operator) {
      await page.goto('/console');
      await page.fill('#api-key', key);
      if (operator) await page.fill('#operator-name', operator);
      await page.click('button[type=submit]');
      await page.waitForSelector('#sign-out');
    },
  };
}

/**
 * The real server on a real port with the `npm start` demo seeded (sandbox sources not ticking, so
 * counts change only when a test injects a detection), and Debian's chromium.
 */
export async function startConsoleApp(dialect: DialectName = 'sqlite'): Promise<ConsoleApp> {
  const t = await createTestApp({ dialect, config: { rateLimitPerMinute: 100_000, webhookAllowPrivate: true } });
  const seed = (await seedDemo(t.ctx))!;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const b = await launchConsoleBrowser(base);
  return {
    t,
    base,
    seed,
    browser: b.browser,
    newPage: b.newPage,
    signIn: b.signIn,
    async call(key, method, path, body) {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text && /json/.test(res.headers.get('content-type') ?? '') ? JSON.parse(text) : text };
    },
    async close() {
      await b.browser.close();
      await t.close();
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it is now; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // evaluated through the DevTools protocol, which the page's CSP does not govern (the page itself runs no inline script)
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) }));
  });
  return result
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.join(' | ')}`);
}

export async function waitUntil<T>(what: string, fn: () => Promise<T | false | null | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
