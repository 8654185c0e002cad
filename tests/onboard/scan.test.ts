// `env scan` on a folder of repositories the test builds: each kept or
// rejected with its class, two at a time, resumed after a kill -9, with a
// summary by class and runner and catalogue entries for the kept.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { registeredEnvironment } from '../../src/env/registry.js';
import { parseScanList } from '../../src/onboard/scan-list.js';
import { readResults, scanRepositories } from '../../src/onboard/scan.js';
import { summarize } from '../../src/onboard/scan-report.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { Store } from '../../src/store/store.js';
import { killLeftovers, spawnCli } from '../helpers/cli-lm.js';
import { gitRepo, NODE_LIB, NODE_PKG, nodeLibTests } from '../helpers/git-repos.js';
import { tempDir } from '../helpers/workspace.js';

after(killLeftovers);

/** Four repositories, one per outcome: kept, failing tests, nothing to infer, a missing generated module. */
function fixtureFolder(): string {
  const root = tempDir('fn-scan-');
  gitRepo('good-lib', { files: { 'package.json': NODE_PKG, 'lib/index.js': NODE_LIB, 'test/lib.test.js': nodeLibTests('../lib/index.js') } }, root);
  gitRepo(
    'broken-lib',
    { files: { 'package.json': NODE_PKG, 'lib/index.js': NODE_LIB.replaceAll('return', 'return 0 &&'), 'test/lib.test.js': nodeLibTests('../lib/index.js') } },
    root,
  );
  gitRepo('docs-only', { files: { 'README.md': '# nothing to test\n' } }, root);
  gitRepo(
    'gen-py',
    {
      files: {
        'pyproject.toml': '[project]\nname = "genpy"\nversion = "0.1"\n',
        'genpy/__init__.py': 'from ._version import version\n',
        'tests/test_a.py': 'import genpy\n\ndef test_a():\n    assert genpy.version\n',
      },
    },
    root,
  );
  writeFileSync(join(root, 'list.txt'), '# the fixtures\ngood-lib\nbroken-lib\ndocs-only\ngen-py   # a generated module is missing\n');
  return root;
}

describe('env scan', () => {
  it('parses TARGET [COMMIT] [NAME] lines, naming each uniquely', () => {
    const items = parseScanList('https://example.invalid/a/lib.git 0123abc\n/x/lib\n\n# c\n/y/other/repo 89abcdef01 mine\n', '/base');
    assert.deepEqual(
      items.map((i) => [i.name, i.commit ?? '']),
      [
        ['lib', '0123abc'],
        ['lib-2', ''],
        ['mine', '89abcdef01'],
      ],
    );
    assert.throws(() => parseScanList('a b c d\n', '/'), /line 1: "c" is neither a commit/);
  });

  it('keeps or rejects each repository with one class, two at a time, and writes a summary and catalogue entries', async () => {
    const root = fixtureFolder();
    const dataDir = tempDir();
    const store = new Store(dataDir);
    const outDir = join(dataDir, 'scan');
    const events: string[] = [];
    try {
      const items = parseScanList(readFileSync(join(root, 'list.txt'), 'utf8'), root);
      const results = await scanRepositories(items, {
        store,
        dataDir,
        runtime: selectRuntime({ warn: () => {} }),
        outDir,
        workers: 2,
        probe: 3,
        seed: 0,
        onStart: (i) => events.push(`start ${i.name}`),
        onResult: (r) => events.push(`end ${r.name}`),
      });
      const classes = Object.fromEntries(results.map((r) => [r.name, r.class]));
      assert.deepEqual(
        classes,
        { 'good-lib': 'kept', 'broken-lib': 'failing-tests', 'docs-only': 'not-inferred', 'gen-py': 'generated-module' },
        JSON.stringify(results, null, 1),
      );
      assert.deepEqual(events.slice(0, 2), ['start good-lib', 'start broken-lib'], `two in flight before any ends: ${events.join(', ')}`);
      const good = results.find((r) => r.name === 'good-lib')!;
      assert.match(good.commit ?? '', /^[0-9a-f]{40}$/);
      assert.ok(good.valid! >= 1 && good.referenceSolved === good.valid && good.emptyPassed === 0);
      assert.ok(registeredEnvironment(store, 'good-lib'), 'a kept repository stays registered');
      assert.equal(registeredEnvironment(store, 'broken-lib'), undefined, 'a rejected one does not');
      const s = summarize(results);
      assert.equal(s.rate, '25.0% (1/4)');
    } finally {
      store.close();
    }
  });

  it('resumes after kill -9 without redoing finished repositories, and prints the summary tables', async () => {
    const root = fixtureFolder();
    const dataDir = tempDir();
    const outDir = join(dataDir, 'scan');
    const args = ['--data-dir', dataDir, 'env', 'scan', join(root, 'list.txt'), '--out', outDir, '--workers', '1', '--probe', '2'];
    const first = spawnCli(args);
    await first.waitFor('stderr', /\[1\/4\] good-lib: kept/, 240_000);
    first.child.kill('SIGKILL');
    await first.exited(10_000);
    const before = readResults(outDir);
    assert.ok(before.length >= 1 && before.length < 4, `${before.length} results before the kill`);

    const again = spawnCli(args);
    const end = await again.exited(300_000);
    assert.equal(end.code, 0, again.stderr());
    assert.match(again.stderr(), new RegExp(`${before.length} already done, resuming`));
    const after = readResults(outDir);
    assert.deepEqual(after.map((r) => r.name).sort(), ['broken-lib', 'docs-only', 'gen-py', 'good-lib']);
    assert.equal(after.find((r) => r.name === 'good-lib')!.finishedAt, before.find((r) => r.name === 'good-lib')!.finishedAt, 'not scanned again');
    const out = again.stdout();
    assert.match(out, /kept 25\.0% \(1\/4\) of the repositories whose dependencies this machine can install \(95% Wilson interval/);
    assert.match(out, /^generated-module\s+1\s/m);
    assert.match(out, /^javascript \/ node-test\s+50\.0% \(1\/2\)/m);
    const catalogue = JSON.parse(readFileSync(join(outDir, 'catalogue.json'), 'utf8')) as { entries: { name: string; verified: { valid: number } }[] };
    assert.deepEqual(
      catalogue.entries.map((e) => e.name),
      ['good-lib'],
    );
  });
});
