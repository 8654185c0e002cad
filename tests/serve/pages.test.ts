// The dashboard's pages in headless Chromium over a small hand-made store
// (seconds, no training): long tables shown in part until asked, a pruned
// attempt said so, a killed run shown interrupted, a missing page named.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readySelector, chromiumPath } from '../../src/serve/pages.js';
import { Dashboard } from '../../src/serve/server.js';
import { addRun, fixtureStore, type FixtureStore } from '../helpers/serve-store.js';

const executablePath = chromiumPath();

describe('dashboard pages in headless Chromium', { skip: executablePath ? false : 'no chromium: apt-get install chromium' }, () => {
  let f: FixtureStore;
  let dash: Dashboard;
  let browser: Browser;
  let page: Page;
  let url = '';
  let ids: number[] = [];
  const open = async (hash: string) => {
    await page.goto(`${url}${hash}`);
    await page.waitForSelector(readySelector(hash), { state: 'attached' });
  };

  before(async () => {
    f = await fixtureStore();
    ids = addRun(f, 'long', 320);
    f.log.runProgress('long', { step: 2, rollouts: 320 }, 'budget');
    addRun(f, 'killed', 1);
    f.store.db.prepare("UPDATE runs SET pid = 2147483646 WHERE name = 'killed'").run();
    f.store.db.prepare('UPDATE attempts SET artifact = NULL WHERE id = ?').run(ids[0]!);
    dash = new Dashboard({ store: f.store, dataDir: f.dir, host: '127.0.0.1', port: 0 });
    url = await dash.listen();
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox'] });
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await dash?.close();
    f?.store.close();
  });

  it('shows a killed run as interrupted and a finished one with why it stopped', async () => {
    await open('#/');
    assert.match(await page.locator('tr[data-run="killed"]').innerText(), /interrupted/);
    assert.match(await page.locator('tr[data-run="long"]').innerText(), /stopped \(budget\)/);
  });

  it('draws a run against steps, rollouts or minutes, one point per step', async () => {
    for (const by of ['steps', 'rollouts', 'minutes']) {
      await open(`#/run/long?by=${by}`);
      assert.equal(await page.getAttribute('[data-chart="reward"]', 'data-points'), '2');
      assert.ok((await page.locator('[data-chart="frontier"] .u-legend').innerText()).includes(by), by);
      assert.equal(await page.inputValue('#axis'), by);
    }
  });

  it('draws the first 300 attempts of a task and the rest on request', async () => {
    await open(`#/task/long/${encodeURIComponent(f.task.id)}`);
    assert.equal(await page.locator('#attempts tbody tr[data-attempt]').count(), 300);
    await page.click('text=show the other 20 attempts');
    assert.equal(await page.locator('#attempts tbody tr[data-attempt]').count(), 320);
  });

  it('says when an attempt was pruned by the disk budget, keeping its outcome', async () => {
    await open(`#/attempt/${ids[0]}`);
    assert.match(await page.innerText('main'), /trajectory was pruned to keep the store within its disk budget/);
    assert.match(await page.innerText('h1'), /pass/);
    await open(`#/attempt/${ids[1]}`);
    assert.equal(await page.locator('#trajectory .turn.tool').count(), 1);
    assert.match(await page.innerText('#trajectory'), /Bash/);
    assert.equal(await page.locator('#change .add').count(), 1);
  });

  it('names a page that does not exist, and an unknown run', async () => {
    await open('#/nowhere');
    assert.match(await page.innerText('main'), /No page at #\/nowhere/);
    await open('#/run/ghost');
    assert.match(await page.innerText('main'), /Could not load this page: not found/);
  });
});
