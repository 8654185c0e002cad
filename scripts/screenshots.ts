// Saves a screenshot of each dashboard page over a data directory's store:
//   npm run screenshots -- --data-dir DIR --out DIR [--run NAME]
// It starts the dashboard on a free loopback port, drives Debian's chromium
// (playwright-core; no browser is downloaded), waits until each page has
// drawn, and writes PNGs with an index saying what each shows.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { readySelector, chromiumPath, dashboardPages } from '../src/serve/pages.js';
import { Dashboard } from '../src/serve/server.js';
import { Store } from '../src/store/store.js';

const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, out: { type: 'string' }, width: { type: 'string' }, run: { type: 'string' } } });
const dataDir = resolve(values['data-dir'] ?? '.frognano');
const out = resolve(values.out ?? 'screenshots');
const executablePath = chromiumPath();
if (!executablePath) {
  console.error('screenshots: no chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  process.exit(2);
}
const store = new Store(dataDir);
const dash = new Dashboard({ store, dataDir, host: '127.0.0.1', port: 0 });
const url = await dash.listen();
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: Number(values.width ?? 1400), height: 900 } });
  mkdirSync(out, { recursive: true });
  const index: string[] = [];
  for (const p of dashboardPages(store, dataDir, values.run)) {
    const t0 = performance.now();
    await page.goto(`${url}${p.hash}`);
    await page.waitForSelector(readySelector(p.hash), { state: 'attached' });
    const ms = performance.now() - t0;
    const file = join(out, `${p.name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    index.push(`${p.name}.png\t${ms.toFixed(0)} ms\t${p.shows}`);
    console.log(`${file}  (${ms.toFixed(0)} ms to load)  ${p.shows}`);
  }
  writeFileSync(join(out, 'index.tsv'), `${index.join('\n')}\n`);
} finally {
  await browser.close();
  await dash.close();
  store.close();
}
