import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { CHROMIUM, startConsoleApp, type ConsoleApp } from './console-app.ts';

// Every item has an address (docs/decisions.md, "Console routes"): an alert at #/alerts/<id> and a
// key at #/keys/<id>, in Debian's chromium on a real server. Opening the address marks the item's
// row; reload stays on it; back and forward move between items; an item past the first page is
// fetched on its own; an id that is not this key's says so.
const skip = !existsSync(CHROMIUM) && 'Debian chromium is not installed';

describe('alert and key addresses in chromium', { skip }, () => {
  let c: ConsoleApp;
  let org: string;
  let lobby: { id: string };
  before(async () => {
    c = await startConsoleApp();
    org = c.seed.org.key;
    lobby = c.seed.streams.find((s) => s.location === 'north_lobby')!;
  });
  after(() => c?.close());

  const open = async (hash: string) => {
    const p = await c.newPage();
    await c.signIn(p.page, org, 'Dana Reyes');
    await p.page.evaluate((h) => {
      location.hash = h;
    }, hash);
    return p;
  };
  const openRow = (page: Page, attr: string) => page.locator(`tr[${attr}][aria-current="true"]`);

  test(
    '#/alerts/<id> marks that alert, survives a reload, and back/forward move between alerts; an older alert is fetched; a foreign id says not found',
    { timeout: 90_000 },
    async () => {
      const rule = await c.call(org, 'POST', '/v1/alert-rules', {
        name: 'Lobby busy',
        condition: { type: 'person_count', above: 3 },
        locations: ['north_lobby'],
        cooldown_s: 0,
      });
      assert.equal(rule.status, 201, JSON.stringify(rule.body));
      // 52 alerts: the console lists the 50 newest, so the first two are only reachable by address
      for (let i = 0; i < 52; i++) {
        await c.call(org, 'POST', '/v1/sandbox/detections', { stream_id: lobby.id, type: 'person_count', value: 0 });
        const r = await c.call(org, 'POST', '/v1/sandbox/detections', { stream_id: lobby.id, type: 'person_count', value: 4 + i });
        assert.equal(r.status, 201, JSON.stringify(r.body));
      }
      await c.t.ctx.pipeline.drain();
      const all: Array<{ id: string }> = [];
      for (let after: string | null = null; ;) {
        const listed: { data: Array<{ id: string }>; has_more: boolean } = (
          await c.call(org, 'GET', `/v1/alerts?limit=100&rule_id=${rule.body.id}${after ? `&starting_after=${after}` : ''}`)
        ).body;
        all.push(...listed.data);
        if (!listed.has_more) break;
        after = listed.data.at(-1)!.id;
      }
      assert.ok(all.length >= 52, `${all.length} alerts`);
      const [newest, second] = all;
      const oldest = all.at(-1)!;

      const { context, page, errors } = await open(`#/alerts/${second.id}`);
      await openRow(page, `data-alert="${second.id}"`).waitFor();
      await page.reload();
      await openRow(page, `data-alert="${second.id}"`).waitFor();
      // a click on another alert's time gives it the address
      await page.click(`tr[data-alert="${newest.id}"] a.link`);
      await openRow(page, `data-alert="${newest.id}"`).waitFor();
      assert.equal(new URL(page.url()).hash, `#/alerts/${newest.id}`);
      assert.equal(await page.locator('tr[data-alert][aria-current="true"]').count(), 1, 'one alert is open');
      await page.goBack();
      await openRow(page, `data-alert="${second.id}"`).waitFor();
      await page.goForward();
      await openRow(page, `data-alert="${newest.id}"`).waitFor();

      // past the 50 listed: shown on its own
      assert.equal(await page.locator(`tr[data-alert="${oldest.id}"]`).count(), 0, 'the oldest alert is not in the list');
      await page.evaluate((h) => {
        location.hash = h;
      }, `#/alerts/${oldest.id}`);
      const card = page.locator('#open-alert');
      await card.waitFor();
      assert.match((await card.textContent())!, /Lobby busy at north_lobby/);

      // an id this key cannot read
      await page.evaluate(() => {
        location.hash = '#/alerts/alert_00000000000000000000000000';
      });
      await page.waitForSelector('.error[role=alert]');
      assert.match((await page.locator('.error[role=alert]').first().textContent())!, /not found/i);
      assert.deepEqual(errors, []);
      await context.close();
    },
  );

  test('#/keys/<id> marks that key and survives a reload; a click on another key gives it the address; back returns', { timeout: 60_000 }, async () => {
    const made: string[] = [];
    for (const name of ['front desk kiosk', 'night guard tablet']) {
      const r = await c.call(org, 'POST', '/v1/keys', { name, capabilities: ['streams:read'] });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      made.push(r.body.id);
    }
    const [kiosk, tablet] = made;
    const { context, page, errors } = await open(`#/keys/${kiosk}`);
    await openRow(page, `data-key="${kiosk}"`).waitFor();
    await page.reload();
    await openRow(page, `data-key="${kiosk}"`).waitFor();
    await page.click(`tr[data-key="${tablet}"] a.link`);
    await openRow(page, `data-key="${tablet}"`).waitFor();
    assert.equal(new URL(page.url()).hash, `#/keys/${tablet}`);
    assert.equal(await page.locator('tr[data-key][aria-current="true"]').count(), 1);
    await page.goBack();
    await openRow(page, `data-key="${kiosk}"`).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
