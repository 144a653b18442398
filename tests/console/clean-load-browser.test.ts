import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { ARTEFACTS, CHROMIUM, openEventFeed, settled, startConsoleApp, waitUntil, type ConsoleApp } from './console-app.ts';

// Every console page loads, signed in and signed out, with no console error and no failed
// request: no 401 from asking for a session the page knows it does not have, no /favicon.ico
// 404, no snapshot 404 for a sandbox detection. And the phone layout: nothing wider than 390 px,
// no unlabelled cell, the chart's "100" drawn whole. The wall's charts are one request.
const skip = !existsSync(CHROMIUM) && 'Debian chromium is not installed';

/** Everything a page logged as an error and every request that failed or was refused. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()} (${m.location().url})`);
  });
  page.on('requestfailed', (r) => {
    // an event stream closed by leaving the page is not a failure
    if (r.failure()?.errorText === 'net::ERR_ABORTED' && /\/v1\/events\/stream|\/v1\/home\/events\/stream/.test(r.url())) return;
    problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
  });
  return problems;
}

describe('console pages load with no console error and no failed request', { skip }, () => {
  let c: ConsoleApp;
  let org: string;
  let home: string;
  before(async () => {
    c = await startConsoleApp();
    org = c.seed.org.key;
    home = c.seed.household.key;
  });
  after(() => c?.close());

  const fresh = async (width: 'desktop' | 'phone' = 'desktop'): Promise<{ context: BrowserContext; page: Page; problems: string[] }> => {
    const { context, page } = await c.newPage(width);
    return { context, page, problems: watch(page) };
  };
  const visit = async (page: Page, id: string) => {
    await page.evaluate((h) => {
      location.hash = h;
    }, `#/${id}`);
    await page.waitForFunction((h) => document.querySelector('nav a[aria-current="page"]')?.getAttribute('href') === h, `#/${id}`);
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await settled(page);
  };

  test('signed out: the sign-in page, the publish page without a link, and a JSON answer asks nothing that fails', async () => {
    for (const width of ['desktop', 'phone'] as const) {
      const { context, page, problems } = await fresh(width);
      const asked: string[] = [];
      page.on('request', (r) => asked.push(new URL(r.url()).pathname));
      await page.goto('/console');
      await page.waitForSelector('#api-key');
      await page.waitForLoadState('networkidle');
      assert.equal(asked.includes('/v1/console/session'), false, 'a page served without a session cookie does not ask for one');
      await page.goto('/console/publish');
      await page.waitForSelector('body[data-state="error"]');
      await page.goto('/healthz');
      await page.waitForTimeout(300);
      assert.deepEqual(problems, [], width);
      await context.close();
    }
    // a browser asking for /favicon.ico gets the console's icon
    const icon = await fetch(`${c.base}/favicon.ico`);
    assert.equal(icon.status, 200);
    assert.equal(icon.headers.get('content-type'), 'image/png');
  });

  test(
    'signed in, every organization and household page, reloaded, then signed out and reloaded: no console error, no failed request',
    { timeout: 240_000 },
    async () => {
      const ORG = ['wall', 'streams', 'incidents', 'alerts', 'webhooks', 'responders', 'audit', 'keys', 'notifications'];
      const HOME = ['chat', 'watches', 'events', 'home', 'notifications', 'keys'];
      for (const [key, pages] of [
        [org, ORG],
        [home, HOME],
      ] as const) {
        const { context, page, problems } = await fresh();
        await c.signIn(page, key, 'Dana Reyes');
        for (const id of pages) await visit(page, id);
        // a signed-in load: the session is asked for once and answered 200
        const session = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/console/session');
        await page.reload();
        assert.equal((await session).status(), 200);
        await page.waitForSelector('#sign-out');
        await visit(page, pages[0]);
        await page.click('#sign-out');
        await page.waitForSelector('#api-key');
        await page.reload();
        await page.waitForSelector('#api-key');
        await page.waitForTimeout(300);
        assert.deepEqual(problems, [], `${key === org ? 'organization' : 'household'} pages`);
        await context.close();
      }
    },
  );

  test('a session that ended (signed out elsewhere) loads the sign-in page saying so, without a 401', async () => {
    const { context, page, problems } = await fresh();
    await c.signIn(page, org);
    // the wall is up and has nothing in flight: what follows is the load of a page whose session ended
    await page.waitForSelector('#live-state:text-is("Live")');
    await settled(page);
    // the same key signs every console session of it out (DELETE with the key itself)
    assert.equal((await c.call(org, 'DELETE', '/v1/console/session')).status, 200);
    await page.reload();
    await page.waitForSelector('#api-key');
    assert.match((await page.textContent('.signin .notice'))!, /session has ended/);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test('the wall: sandbox detections of people ask for no snapshot (none exists); its charts are one request per range', async () => {
    const { context, page, problems } = await fresh();
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await c.signIn(page, org);
    await page.waitForSelector('#live-state:text-is("Live")');
    await page.waitForFunction(() => document.querySelectorAll('.scene .chart canvas').length === 5);
    const lobby = c.seed.streams.find((s) => s.location === 'north_lobby')!;
    // the same feed read beside the page: a miss below says whether the server sent the update
    const feed = await openEventFeed(c.base, org);
    await feed.waitFor((f) => f.event === 'ready');
    for (const type of ['person', 'vehicle', 'animal']) {
      const res = await c.call(org, 'POST', '/v1/sandbox/detections', {
        stream_id: lobby.id,
        type,
        confidence: 0.9,
        ...(type === 'animal' ? { subtype: 'dog' } : type === 'vehicle' ? { count: 1 } : {}),
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const snapshot = `[data-scene="${lobby.scene_id}"] .snapshot`;
    await page
      .waitForFunction((sel) => /Latest: animal/.test(document.querySelector(sel)?.textContent ?? ''), snapshot, { polling: 100 })
      .catch(async (err) => {
        const sent = feed.frames.filter((f) => f.event === 'scene.updated').map((f) => f.data.data.detection.type);
        const shown = { live: await page.textContent('#live-state'), snapshot: (await page.textContent(snapshot))?.trim() };
        throw new Error(`the wall did not show the animal: ${JSON.stringify(shown)}; the feed beside it sent ${JSON.stringify(sent)}; ${err.message}`);
      });
    await feed.close();
    await page.click('button:text-is("Last day")');
    await page.waitForFunction(() => [...document.querySelectorAll('.chart figcaption')].every((f) => f.textContent === 'People, last day'));
    await settled(page);
    assert.deepEqual(
      asked.filter((p) => p.includes('/snapshot')),
      [],
      'no snapshot asked for a sandbox detection',
    );
    const charts = asked.filter((p) => p.includes('/history'));
    assert.deepEqual(charts, ['/v1/scenes/history?limit=100&range=1h', '/v1/scenes/history?limit=100&range=24h'], 'one request per range for all five charts');
    assert.deepEqual(problems, []);
    await context.close();
  });
});

describe('console layout at 390 px and the chart axis', { skip }, () => {
  let c: ConsoleApp;
  before(async () => {
    c = await startConsoleApp();
  });
  after(() => c?.close());

  /** Elements whose right edge passes the viewport (what makes a phone scroll sideways). */
  const overflowing = (page: Page) =>
    page.evaluate(() => {
      const w = document.documentElement.clientWidth;
      const out: string[] = [];
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        // what is clipped away for screen readers only (.sr-only, a phone's table header) is not seen
        let hidden = false;
        for (let a: Element | null = el; a && !hidden; a = a.parentElement) hidden = getComputedStyle(a).clip !== 'auto';
        if (r.width && r.right > w + 0.5 && !hidden)
          out.push(
            `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} right=${Math.round(r.right)}`,
          );
      }
      return { scrollWidth: document.documentElement.scrollWidth, width: w, out: out.slice(0, 8) };
    });

  test('household and organization keys, and streams, fit 390 px; every empty cell is labelled', async () => {
    // keys with long names and every capability, as a real account has
    await c.call(c.seed.household.key, 'POST', '/v1/keys', { name: 'Grandma’s tablet in the kitchen (member)', role: 'member' });
    for (const [key, page_] of [
      [c.seed.household.key, 'keys'],
      [c.seed.org.key, 'keys'],
      [c.seed.org.key, 'streams'],
    ] as const) {
      const { context, page } = await c.newPage('phone');
      await c.signIn(page, key);
      await page.evaluate((h) => {
        location.hash = h;
      }, `#/${page_}`);
      await page.waitForSelector('table.list tbody tr');
      await page.waitForTimeout(200);
      const o = await overflowing(page);
      await page.screenshot({ path: new URL(`layout-${key === c.seed.org.key ? 'org' : 'home'}-${page_}-phone.png`, ARTEFACTS).pathname, fullPage: true });
      assert.ok(o.scrollWidth <= 390 && o.out.length === 0, `${page_}: ${JSON.stringify(o)}`);
      // a cell's column header is hidden on a phone: every cell of the streams table says what it is
      if (page_ === 'streams') {
        // (the first cell, the stream's name, needs no label)
        const cells = await page.$$eval('table.list tbody tr', (trs) =>
          trs.flatMap((tr) =>
            [...tr.querySelectorAll('td')].slice(1).map((td) => ({ text: td.textContent!.trim(), label: getComputedStyle(td, '::before').content })),
          ),
        );
        assert.ok(cells.length > 0);
        for (const cell of cells) assert.notEqual(cell.label, 'none', `a labelled cell: ${JSON.stringify(cell)}`);
        assert.equal(cells.filter((x) => x.text === '—').length, 0, 'no bare "—"');
      }
      await context.close();
    }
  });

  test('the chart\'s count axis is wide enough for "100"', async () => {
    const lobby = c.seed.streams.find((s) => s.location === 'north_lobby')!;
    assert.equal((await c.call(c.seed.org.key, 'POST', '/v1/sandbox/detections', { stream_id: lobby.id, type: 'person_count', value: 100 })).status, 201);
    for (const width of ['desktop', 'phone'] as const) {
      const { context, page } = await c.newPage(width);
      await c.signIn(page, c.seed.org.key);
      const chart = `[data-scene="${lobby.scene_id}"] .chart [role=img]`;
      await waitUntil('the chart to draw 100', () =>
        page.evaluate((sel) => {
          const u = (document.querySelector(sel) as any)?.plot;
          return Boolean(u && u.axes[1]._values?.some((v: string) => String(v).length >= 3));
        }, chart),
      );
      const fit = await page.evaluate((sel) => {
        const u = (document.querySelector(sel) as any).plot;
        const axis = u.axes[1];
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = axis.font[0];
        const widest = Math.max(...axis._values.map((v: string) => ctx.measureText(String(v)).width / devicePixelRatio));
        // the label is drawn right-aligned at the tick, within the axis's width
        return { labels: axis._values, widest, room: axis._size - axis.ticks.size - axis.gap };
      }, chart);
      assert.ok(fit.widest <= fit.room, `${width}: labels ${JSON.stringify(fit)}`);
      await page.locator(`[data-scene="${lobby.scene_id}"] .chart`).screenshot({ path: new URL(`chart-100-${width}.png`, ARTEFACTS).pathname });
      await context.close();
    }
  });
});
