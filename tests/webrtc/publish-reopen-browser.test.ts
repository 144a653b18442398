import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { waitUntil } from '../video-integration/video-app.ts';
import { startWhipApp, type WhipApp } from './whip-app.ts';

// Reopening the publish page (docs/decisions.md, "Reopening the publish page"): the page closed
// and opened again on the same phone takes the stream over at once, even when the closed page's
// DELETE never arrived; a second tab or device while the first publishes is told so, with a
// "Take over" button, and does not retry on its own. Debian's chromium, its camera faked.
const CHROMIUM = '/usr/bin/chromium';
let v: WhipApp;
let browser: Browser;

before(async () => {
  // a publisher that vanishes is noticed after a minute here, as a phone on a flaky network may be:
  // the window in which a reopened page found its own closed session still live (409)
  v = await startWhipApp({ mediaTimeoutMs: 60_000, disconnectedGraceMs: 60_000 });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      '--disable-features=WebRtcHideLocalIpsWithMdns',
    ],
  });
});

after(async () => {
  await browser?.close();
  await v?.close();
});

const status = (page: Page) => page.textContent('#status').then((t) => t ?? '');
const live = (page: Page, what: string) =>
  waitUntil(`${what} to say it is live`, async () => (await status(page)).startsWith('Live'), 40_000).catch(async (err) => {
    throw new Error(`${(err as Error).message}; it says ${JSON.stringify(await status(page))}`);
  });
/** A well-formed offer: with a live publisher it is refused with 409 before any negotiation, naming the session. */
const OFFER = [
  'v=0',
  'o=- 1 1 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'c=IN IP4 0.0.0.0',
  'a=mid:0',
  'a=ice-ufrag:probe',
  'a=ice-pwd:probeprobeprobeprobeprobe',
  `a=fingerprint:sha-256 ${Array.from({ length: 32 }, () => 'AB').join(':')}`,
  'a=setup:actpass',
  'a=sendonly',
  'a=rtpmap:96 VP8/90000',
  '',
].join('\r\n');
const serverSession = (streamId: string) =>
  fetch(`${v.base}/v1/streams/${streamId}/whip`, {
    method: 'POST',
    headers: { 'content-type': 'application/sdp', authorization: `Bearer ${token}` },
    body: OFFER,
  });
let token = '';

test(
  'a second tab is told another publishes and takes over with one click; the page reopened after closing takes over by itself',
  { skip: !existsSync(CHROMIUM) && 'Debian chromium is not installed', timeout: 240_000 },
  async () => {
    const s = await v.createWebRtcStream('Guard phone', 'loading_dock');
    token = s.token;
    // one phone: one browser profile (its storage and locks are shared by its tabs)
    const phone: BrowserContext = await browser.newContext();
    const problems: string[] = [];
    const watch = (page: Page, name: string) => page.on('pageerror', (err) => problems.push(`${name}: ${err.message}`));

    const a = await phone.newPage();
    watch(a, 'A');
    await a.goto(s.publishUrl);
    await live(a, 'the first tab');
    const first = v.ctx.whip.sessionStats(s.id);
    assert.ok(first, 'a live session');

    // a second tab while the first publishes: 409, said plainly, with the button; no retry on its own
    const b = await phone.newPage();
    watch(b, 'B');
    const posts: number[] = [];
    b.on('response', (r) => {
      if (r.request().method() === 'POST' && /\/whip/.test(r.url())) posts.push(r.status());
    });
    await b.goto(s.publishUrl);
    await b.waitForSelector('#takeover', { state: 'visible' });
    assert.match(await status(b), /^Another tab or device is publishing this stream since .+\. Take over to publish from here instead/);
    await b.waitForTimeout(4000);
    assert.deepEqual(posts, [409], 'one attempt, then it waits for the user (no 3-second retries)');
    assert.ok((await status(a)).startsWith('Live'), 'the first tab still publishes');

    // Take over: B publishes, A's session is ended on the server
    const sessionOfA = await a.evaluate((k) => localStorage.getItem(k), `vigil-publish:${s.id}`);
    await b.click('#takeover');
    await live(b, 'the second tab after Take over');
    assert.deepEqual(posts, [409, 201]);
    const sessionOfB = await b.evaluate((k) => localStorage.getItem(k), `vigil-publish:${s.id}`);
    assert.ok(sessionOfA && sessionOfB && sessionOfA !== sessionOfB, `${sessionOfA} then ${sessionOfB}`);
    const busy = await serverSession(s.id);
    assert.equal(busy.status, 409);
    const problem = await busy.json();
    assert.equal(problem.code, 'stream_already_publishing');
    assert.equal(problem.session_id, sessionOfB, "the server holds the second tab's session");
    assert.match(problem.since, /^\d{4}-\d\d-\d\dT/);
    assert.match(problem.detail, /\?takeover=true/);
    await a.close();

    // B closes and its DELETE never arrives (a phone closing a tab, the network gone): the server
    // still holds B's session when the page is opened again
    await b.evaluate(() => {
      window.fetch = () => new Promise(() => undefined);
    });
    await b.close({ runBeforeUnload: true });
    assert.equal((await serverSession(s.id)).status, 409, "B's session is still live on the server");
    const c = await phone.newPage();
    watch(c, 'C');
    const cPosts: string[] = [];
    c.on('response', (r) => {
      if (r.request().method() === 'POST' && /\/whip/.test(r.url())) cPosts.push(`${r.status()} ${new URL(r.url()).search}`);
    });
    await c.goto(s.publishUrl);
    await live(c, 'the reopened page');
    assert.deepEqual(cPosts, ['409 ', '201 ?takeover=true'], 'it saw its own earlier session and took over without asking');
    assert.equal(await c.isVisible('#takeover'), false);

    // a different phone (another browser profile) is not taken over silently: it is asked
    const other = await browser.newContext();
    const d = await other.newPage();
    watch(d, 'D');
    await d.goto(s.publishUrl);
    await d.waitForSelector('#takeover', { state: 'visible' });
    assert.ok((await status(c)).startsWith('Live'));
    await d.close();
    await other.close();
    await c.close({ runBeforeUnload: true });
    await phone.close();
    assert.deepEqual(problems, []);
  },
);
