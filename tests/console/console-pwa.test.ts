import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { CHROMIUM, startConsoleApp, type ConsoleApp } from './console-app.ts';

// The installable console (docs/decisions.md, "Notifications through the outbox") in Debian's
// chromium: a valid web app manifest with fetchable icons, the service worker registers at
// /console/ and its registration shows notifications carrying the page to open, and the
// Notifications page works at 390 px. (A push delivered through the DevTools protocol and the
// notification click are not covered: that attempt hung in headless chromium.)
const skip = !existsSync(CHROMIUM) && 'Debian chromium is not installed';

/** width and height of a PNG from its IHDR chunk */
function pngSize(b: Buffer): [number, number] {
  assert.equal(b.subarray(1, 4).toString('latin1'), 'PNG');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

describe('installable console in chromium', { skip }, () => {
  let c: ConsoleApp;
  before(async () => {
    c = await startConsoleApp();
  });
  after(() => c?.close());

  test('the manifest is valid for installing: name, start_url and scope under /console/, standalone, 192 and 512 px PNG icons', async () => {
    const res = await fetch(`${c.base}/console/manifest.webmanifest`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^application\/manifest\+json/);
    const m = await res.json();
    assert.equal(m.name, 'Vigil console');
    assert.equal(m.short_name, 'Vigil');
    assert.equal(m.start_url, '/console/');
    assert.equal(m.scope, '/console/');
    assert.equal(m.display, 'standalone');
    const sizes = new Set<string>();
    for (const icon of m.icons) {
      const r = await fetch(`${c.base}${icon.src}`);
      assert.equal(r.status, 200, icon.src);
      assert.equal(r.headers.get('content-type'), 'image/png');
      const [w, h] = pngSize(Buffer.from(await r.arrayBuffer()));
      assert.equal(`${w}x${h}`, icon.sizes, icon.src);
      sizes.add(icon.sizes);
    }
    assert.ok(sizes.has('192x192') && sizes.has('512x512'));
    const html = await (await fetch(`${c.base}/console`)).text();
    assert.match(html, /<link rel="manifest" href="\/console\/manifest.webmanifest">/);
    const sw = await fetch(`${c.base}/console/sw.js`);
    assert.equal(sw.status, 200);
    assert.match(sw.headers.get('content-type')!, /^text\/javascript/);
  });

  test('the service worker registers for /console/ and shows a notification with the page to open; the page works at 390 px', async () => {
    const { context, page, errors } = await c.newPage('phone');
    page.setDefaultTimeout(30_000);
    await context.grantPermissions(['notifications'], { origin: c.base });
    await c.signIn(page, c.seed.household.key);
    await page.evaluate(() => { location.hash = '#/notifications'; });
    await page.waitForSelector('h1#page-title:text-is("Notifications")');
    assert.ok(await page.isVisible('button:text-is("Enable notifications on this device")'));
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scrolling at 390 px (${overflow} px over)`);

    const scope = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.register('/console/sw.js', { scope: '/console/' });
      const sw = reg.installing ?? reg.waiting ?? reg.active;
      if (sw && sw.state !== 'activated') await new Promise<void>((r) => sw.addEventListener('statechange', () => sw.state === 'activated' && r()));
      return reg.scope;
    });
    assert.equal(scope, `${c.base}/console/`);
    // the worker shows a notification the way a push makes it, with the page to open when tapped
    const message = { title: 'The front porch camera saw a person (3)', body: 'The front porch camera saw a person', url: `${c.base}/console/#/events?event=evt_x`, tag: 'watch:wat_x' };
    const shown = await page.evaluate(async (m) => {
      const reg = (await navigator.serviceWorker.getRegistration('/console/'))!;
      await reg.showNotification(m.title, { body: m.body, tag: m.tag, data: { url: m.url } });
      const [n] = await reg.getNotifications({ tag: m.tag });
      return n ? { title: n.title, body: n.body, tag: n.tag, url: n.data?.url } : null;
    }, message);
    assert.deepEqual(shown, message);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
