import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createECDH, randomBytes } from 'node:crypto';
import { CHROMIUM, startConsoleApp, waitUntil, type ConsoleApp } from './console-app.ts';

// The installable console (docs/decisions.md, "Notifications through the outbox") in Debian's
// chromium: a valid web app manifest with fetchable icons, the service worker registers at
// /console/ and its registration shows notifications carrying the page to open, and the
// Notifications page works at 390 px; tapping a notification shows its page in the console window
// that is open. Headless chromium shows no notification to click and has no DevTools command that
// clicks one, so the tap runs the worker's own click code (self.vigil.showPage) in the worker
// through the DevTools protocol, on a notification the browser holds. Every browser step is bounded.
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

  /** a step in the browser that cannot hang the suite */
  const bounded = <T>(what: string, p: Promise<T>, ms = 20_000): Promise<T> => {
    let timer: NodeJS.Timeout;
    return Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  };

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
    await page.evaluate(() => {
      location.hash = '#/notifications';
    });
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
    const message = {
      title: 'The front porch camera saw a person (3)',
      body: 'The front porch camera saw a person',
      url: `${c.base}/console/#/events?event=evt_x`,
      tag: 'watch:wat_x',
    };
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

  test(
    '/console redirects to /console/, inside the worker’s scope; tapping an incident’s notification shows the incident in the open console, in no new window',
    { timeout: 120_000 },
    async () => {
      const redirect = await fetch(`${c.base}/console?from=home`, { redirect: 'manual' });
      assert.equal(redirect.status, 308);
      assert.equal(redirect.headers.get('location'), '/console/?from=home');

      // a device subscribed through the API (the browser's own push service is unreachable offline)
      // and an incident: the notification's address is the one the server queued for that device
      const org = c.seed.org.key;
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const sub = await c.call(org, 'POST', '/v1/notification-subscriptions', {
        channel: 'push',
        endpoint: 'https://127.0.0.1:9/push/phone',
        keys: { p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') },
        events: ['incident.created'],
      });
      assert.equal(sub.status, 201, JSON.stringify(sub.body));
      const lobby = c.seed.streams.find((s) => s.location === 'north_lobby')!;
      const incident = (await c.call(org, 'POST', '/v1/incidents', { stream_id: lobby.id, title: 'Door forced at the lobby' })).body;
      const message = await waitUntil(
        'the queued notification',
        async () => (await c.call(org, 'GET', `/v1/notification-subscriptions/${sub.body.id}/deliveries`)).body.data?.[0]?.message,
      );
      assert.equal(message.incident_id, incident.id);
      assert.match(message.url, new RegExp(`/console/#/incidents(\\?id=|/)${incident.id}$`));
      // the server's links are at its public URL (VIGIL_PUBLIC_URL; here http://vigil.test), which is
      // the console's origin in a deployment: the same address at this test server's origin
      const link = new URL(message.url);
      const url = new URL(link.pathname + link.search + link.hash, c.base).href;

      const { context, page, errors } = await c.newPage('phone');
      page.setDefaultTimeout(20_000);
      try {
        await context.grantPermissions(['notifications'], { origin: c.base });
        await bounded('sign in', c.signIn(page, org));
        assert.equal(new URL(page.url()).pathname, '/console/', 'the console is at /console/');
        const workerSeen = context.waitForEvent('serviceworker', { timeout: 20_000 });
        await bounded(
          'register the worker',
          page.evaluate(async () => {
            await navigator.serviceWorker.register('/console/sw.js', { scope: '/console/' });
            await navigator.serviceWorker.ready;
          }),
        );
        // the worker claims the open console: the page is controlled (a tap can navigate it)
        await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
        const worker = context.serviceWorkers()[0] ?? (await workerSeen);
        assert.equal(new URL(worker.url()).pathname, '/console/sw.js');
        // chromium's own verdict: the manifest parses without errors and the console is installable
        const cdp = await context.newCDPSession(page);
        const manifest = await bounded('the manifest', cdp.send('Page.getAppManifest'));
        assert.deepEqual(manifest.errors, []);
        assert.match(manifest.url, /\/console\/manifest\.webmanifest$/);
        const installable = await bounded('installability', cdp.send('Page.getInstallabilityErrors'));
        // (a test context is incognito, where chromium installs nothing; every other reason would be the console's)
        assert.deepEqual(
          installable.installabilityErrors.filter((e) => e.errorId !== 'in-incognito'),
          [],
        );

        // the console is on another page when the notification comes
        await page.evaluate(() => {
          location.hash = '#/streams';
        });
        await page.waitForSelector('h1#page-title:text-is("Streams")');
        await bounded(
          'show the notification',
          page.evaluate(
            async (m) => {
              const reg = (await navigator.serviceWorker.getRegistration('/console/'))!;
              await reg.showNotification(m.title, { body: m.body, tag: m.tag, data: { url: m.url } });
            },
            { ...message, url },
          ),
        );
        // the tap, in the worker, on the notification the browser holds
        const shown = await bounded(
          'tap the notification',
          worker.evaluate(async (tag) => {
            const sw = self as any;
            const [n] = await sw.registration.getNotifications({ tag });
            if (!n) return null;
            n.close();
            const client = await sw.vigil.showPage(sw.vigil.targetOf(n.data));
            return client ? client.url : null;
          }, message.tag),
        );
        assert.ok(shown, 'a window shows the notification’s page');
        // (a window client's url leaves the fragment out)
        assert.equal(new URL(shown).pathname, '/console/');
        const hash = new URL(url).hash;
        await page
          .waitForFunction((h) => location.hash === h, hash)
          .catch(async (err) => {
            throw new Error(`the console stayed at ${page.url()} (${await page.evaluate(() => document.querySelector('h1')?.textContent)}): ${err.message}`);
          });
        await page.waitForSelector('#incident-detail');
        assert.equal(context.pages().length, 1, 'the open console window shows it; no new window');

        // an address outside the console opens the console's start instead
        const outside = await bounded(
          'a foreign address',
          worker.evaluate(() => {
            const sw = self as any;
            return [sw.vigil.targetOf({ url: 'https://elsewhere.example/console/#/x' }), sw.vigil.targetOf({ url: '/v1/keys' }), sw.vigil.targetOf(undefined)];
          }),
        );
        assert.deepEqual(outside, [`${c.base}/console/`, `${c.base}/console/`, `${c.base}/console/`]);
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    },
  );
});
