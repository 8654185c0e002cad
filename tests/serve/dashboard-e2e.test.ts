// The dashboard end to end: a real short training run with --serve, watched
// in headless Chromium (Debian's package, driven by playwright-core) while it
// trains, then every page checked against what the run stored. A second,
// smaller real run gives the comparison page two runs. About 6 minutes.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { readySelector, chromiumPath } from '../../src/serve/pages.js';
import { main } from '../../src/cli/main.js';
import { killLeftovers, spawnCli, type CliChild } from '../helpers/cli-lm.js';
import { tempDir } from '../helpers/workspace.js';

const executablePath = chromiumPath();
const SHORT = ['--envs', 'durations', '--held-out', 'md-tokens', '--batch', '2', '--group', '3', '--eval-tasks', '2', '--time-limit', '0'];
const MIN = 60_000;

/** Polls `check` every half second until it holds; throws after `timeoutMs`. */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('the dashboard in headless Chromium over a real training run', { skip: executablePath ? false : 'no chromium: apt-get install chromium' }, () => {
  const data = tempDir();
  let trainer: CliChild;
  let url = '';
  let browser: Browser;
  let page: Page;

  const points = async (chart: string) => Number(await page.getAttribute(`[data-chart="${chart}"]`, 'data-points'));
  const open = async (hash: string) => {
    await page.goto(`${url}${hash}`);
    await page.waitForSelector(readySelector(hash), { state: 'attached' });
  };

  before(async () => {
    trainer = spawnCli(['train', '--serve', '--port', '0', '--data-dir', data, '--run', 'live', '--steps', '3', '--budget', '30', ...SHORT]);
    url = (await trainer.waitFor('stderr', /dashboard: (http:\/\/\S+)/, 2 * MIN))[1]!;
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  });

  after(async () => {
    await browser?.close();
    trainer?.child.kill('SIGINT');
    await trainer?.exited(30_000).catch(() => undefined);
    killLeftovers();
  });

  it('shows the run as running and its reward curve gains points while it trains', async () => {
    // The URL is printed just before the run registers itself: wait for it to be known.
    await until(async () => (await fetch(`${url}api/runs/live`)).ok, 60_000);
    await open('#/run/live');
    assert.equal(await page.textContent('#status'), 'running');
    const before = await points('reward');
    // No reload: the page redraws on the server's events as steps land.
    await until(async () => (await points('reward')) > before, 10 * MIN);
    assert.ok((await points('reward')) > before);
    await trainer.waitFor('stderr', /training finished; the dashboard stays up/, 10 * MIN);
    await page.locator('#status', { hasText: /^stopped$/ }).waitFor({ timeout: 30_000 });
    assert.equal(await points('reward'), 3, 'one point per finished step');
  });

  it('lists the run with its status, progress and held-out rate with counts and interval', async () => {
    await open('#/');
    const row = page.locator('tr[data-run="live"]');
    assert.match(await row.innerText(), /stopped \(steps\)/);
    assert.match(await row.innerText(), /3\/3/);
    assert.match(await row.innerText(), /\d+\.\d% \(\d+\/\d+\) \[95% \d+\.\d-\d+\.\d\]/);
  });

  it('draws every curve of the run against rollouts and against minutes, with the held-out points', async () => {
    for (const by of ['rollouts', 'minutes']) {
      await open(by === 'rollouts' ? '#/run/live' : '#/run/live?by=minutes');
      for (const chart of ['reward', 'non-degenerate', 'yield', 'tampering', 'frontier', 'knobs']) assert.equal(await points(chart), 3, `${chart} by ${by}`);
      assert.equal(await points('held-out'), 2, 'before training and after the last step');
      assert.ok((await page.locator('[data-chart="reward"] .u-legend').innerText()).includes(by));
      assert.ok((await page.locator('[data-chart="knobs"] .u-legend').innerText()).includes('durations'));
    }
    const rows = page.locator('#held-out tbody tr');
    assert.equal(await rows.count(), 2);
    assert.match(await rows.nth(1).innerText(), /^3\s+\d+\s+\d+\.\d% \(\d+\/2\) \[95%/);
  });

  it('browses the tasks, filtered by environment, set and pass rate', async () => {
    await open('#/tasks/live');
    const all = await page.locator('#tasks tbody tr').count();
    assert.ok(all >= 2, `${all} tasks`);
    assert.match(await page.innerText('#task-count'), new RegExp(`^${all} tasks`));
    await page.selectOption('select[name=heldOut]', 'true');
    await page.click('#filters button');
    await page.waitForSelector('body[data-ready*="heldOut=true"]', { state: 'attached' });
    const held = await page.locator('#tasks tbody tr').allInnerTexts();
    assert.equal(held.length, 2, 'the two held-out tasks');
    for (const r of held) assert.match(r, /md-tokens/);
    await open('#/tasks/live?env=durations&min=0.01&max=1');
    for (const r of await page.locator('#tasks tbody tr').allInnerTexts()) {
      assert.match(r, /^durations\./);
      const [, passed] = r.match(/\((\d+)\/\d+\)/) ?? [];
      assert.ok(Number(passed) > 0, `a task with a pass rate above 0: ${r}`);
    }
  });

  it("shows a task's instruction, bug as a diff, tests and every attempt with outcome and verdict", async () => {
    await open('#/tasks/live?env=durations');
    const first = page.locator('#tasks tbody tr').first();
    const attempts = Number((await first.locator('td').nth(7).innerText()).trim());
    await first.locator('a').click();
    await page.waitForSelector('#attempts');
    assert.ok((await page.innerText('#instruction')).length > 20);
    assert.ok((await page.locator('#bug .del').count()) >= 1 && (await page.locator('#bug .add').count()) >= 1);
    assert.match(await page.innerText('#tests'), /FAIL_TO_PASS \([1-9]\d*\)/);
    assert.equal(await page.locator('#attempts tbody tr').count(), attempts);
    for (const r of await page.locator('#attempts tbody tr').allInnerTexts()) assert.match(r, /(pass|fail|tampering|infrastructure)/);
  });

  it('shows an attempt turn by turn: tool calls and outputs, the final diff, the verifier report', async () => {
    const res = await fetch(`${url}api/runs/live/tasks?min=0.01`);
    const body = (await res.json()) as { tasks: { taskId: string }[] };
    const task = (await (await fetch(`${url}api/runs/live/tasks/${encodeURIComponent(body.tasks[0]!.taskId)}`)).json()) as {
      attemptList: { id: number; reward: number | null; turns: number }[];
    };
    const passing = task.attemptList.find((a) => a.reward === 1)!;
    await open(`#/attempt/${passing.id}`);
    assert.equal(await page.locator('#trajectory .turn.assistant').count(), passing.turns);
    assert.ok((await page.locator('#trajectory .turn.tool').count()) >= 1);
    assert.ok((await page.locator('#trajectory .call strong').count()) >= passing.turns - 1, 'each acting turn names its tool');
    assert.ok((await page.locator('#change .add').count()) >= 1, 'the fix as a diff');
    assert.match(await page.innerText('#report'), /verdict\s+pass/);
  });

  it('compares two runs on the same axes', async () => {
    const code = await main(
      ['train', '--data-dir', data, '--run', 'uniform', '--curriculum', 'uniform', '--steps', '2', '--budget', '16', '--json', ...SHORT],
      {
        out: () => {},
        err: () => {},
      },
    );
    assert.equal(code, 0);
    await open('#/compare/live/uniform');
    for (const chart of ['compare-reward', 'compare-held-out', 'compare-non-degenerate']) {
      const legend = await page.locator(`[data-chart="${chart}"] .u-legend`).innerText();
      assert.ok(legend.includes('live') && legend.includes('uniform'), `${chart}: ${legend}`);
    }
    assert.ok((await points('compare-held-out')) >= 2);
  });

  it('is read-only', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) assert.equal((await fetch(`${url}api/runs`, { method })).status, 405);
  });
});
