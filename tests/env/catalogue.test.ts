import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCatalogue } from '../../src/env/catalogue.js';
import { findEnvironment } from '../../src/env/registry.js';
import { Store } from '../../src/store/store.js';
import { catalogueFile } from '../../src/util/paths.js';
import { git } from '../../src/util/git.js';
import { runCli } from '../helpers/cli.js';
import { PY_RUNNER_REPOS, writeRepo } from '../helpers/runner-repos.js';
import { tempDir } from '../helpers/workspace.js';

/** A local git repository with two commits; returns its URL and the first commit (the pinned one). */
async function repoWithHistory(files: Record<string, string>, name: string): Promise<{ url: string; pinned: string }> {
  const dir = writeRepo(files, name);
  await git(['init', '-q', '-b', 'main'], { cwd: dir });
  await git(['-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A'], { cwd: dir });
  await git(['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'first'], { cwd: dir });
  const pinned = (await git(['rev-parse', 'HEAD'], { cwd: dir })).trim();
  writeFileSync(join(dir, 'LATER.md'), 'a later commit the catalogue does not pin\n');
  await git(['-c', 'user.email=t@t', '-c', 'user.name=t', 'add', '-A'], { cwd: dir });
  await git(['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'second'], { cwd: dir });
  return { url: `file://${dir}`, pinned };
}

describe('the catalogue', () => {
  const saved = process.env.FROGNANO_CATALOGUE;
  const dataDir = tempDir();
  before(async () => {
    const a = await repoWithHistory(PY_RUNNER_REPOS.unittest!.files, 'ut-lib');
    const b = await repoWithHistory(PY_RUNNER_REPOS['pytest-src']!.files, 'src-lib');
    const file = join(tempDir(), 'catalogue.json');
    writeFileSync(
      file,
      JSON.stringify({
        schema: 'frognano.catalogue/v1',
        entries: [
          { name: 'ut-lib', git: a.url, commit: a.pinned, language: 'python', runner: 'unittest', description: 'fixture' },
          { name: 'src-lib', git: b.url, commit: b.pinned, language: 'python', runner: 'pytest', flags: { env: { MODE: 'x' } }, description: 'fixture' },
        ],
      }),
    );
    process.env.FROGNANO_CATALOGUE = file;
  });
  after(() => {
    if (saved === undefined) delete process.env.FROGNANO_CATALOGUE;
    else process.env.FROGNANO_CATALOGUE = saved;
  });

  it('env add --from-catalogue clones the entry at its pinned commit, with the flags it records', async () => {
    const r = await runCli(['env', 'add', '--from-catalogue', 'src-lib', '--data-dir', dataDir]);
    assert.equal(r.code, 0, r.err);
    const store = new Store(dataDir);
    const env = findEnvironment(store, 'src-lib');
    store.close();
    assert.equal(env.spec.test.env.MODE, 'x');
    assert.equal(env.spec.test.env.PYTHONPATH, 'src');
    assert.ok('git' in env.spec.source && env.spec.source.ref?.length === 40);
    assert.match(r.out, /runner: pytest/);
  });

  it('the added entry passes env check in the sandbox', async () => {
    assert.equal((await runCli(['env', 'add', '--from-catalogue', 'ut-lib', '--data-dir', dataDir])).code, 0);
    const r = await runCli(['env', 'check', 'ut-lib', '--data-dir', dataDir, '--json']);
    assert.equal(r.code, 0, r.out);
    const [result] = JSON.parse(r.out) as { accepted: boolean; total: number }[];
    assert.equal(result?.accepted, true);
    assert.equal(result?.total, 5);
  });

  it('names the known entries when asked for an unknown one, and lists them', async () => {
    const r = await runCli(['env', 'add', '--from-catalogue', 'nope', '--data-dir', dataDir]);
    assert.notEqual(r.code, 0);
    assert.match(r.err, /no catalogue entry named "nope"/);
    assert.match(r.err, /ut-lib, src-lib/);
    const list = await runCli(['env', 'catalogue']);
    assert.match(list.out, /ut-lib\s+python\s+unittest/);
  });

  it('env catalogue filters by language, runner and yield', async () => {
    const ut = await runCli(['env', 'catalogue', '--runner', 'unittest']);
    assert.match(ut.out, /^ut-lib\s/m);
    assert.doesNotMatch(ut.out, /^src-lib\s/m);
    assert.match(ut.out, /1 of 2 entries/);
    const none = await runCli(['env', 'catalogue', '--min-yield', '0.5']);
    assert.match(none.out, /0 of 2 entries/, 'entries without a verification have no yield');
    assert.notEqual((await runCli(['env', 'catalogue', '--min-yield', '2'])).code, 0);
  });

  it('train --envs catalogue:FILTER adds and checks the matching entries on first use, then trains on them', { timeout: 600_000 }, async () => {
    const fresh = tempDir();
    const r = await runCli([
      'train',
      '--data-dir',
      fresh,
      '--envs',
      'catalogue:pytest',
      '--held-out=',
      '--steps',
      '1',
      '--budget',
      '4',
      '--batch',
      '2',
      '--group',
      '2',
      '--eval-tasks',
      '0',
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /catalogue:pytest: adding src-lib from file:\/\//);
    assert.match(r.err, /catalogue:pytest: checking src-lib/);
    assert.doesNotMatch(r.err, /ut-lib/, 'only the entries that match');
    const store = new Store(fresh);
    try {
      assert.equal(store.latestChecks().get('src-lib')?.accepted, true);
    } finally {
      store.close();
    }
  });

  it('the bundled catalogue is well formed, and every verified entry was accepted with the reference fix solving each valid task', () => {
    for (const e of loadCatalogue(catalogueFile)) {
      if (!e.verified) continue;
      assert.ok(e.verified.accepted, `${e.name} accepted`);
      assert.equal(e.verified.referenceSolved, e.verified.valid, `${e.name}: the reference fix solves every valid task`);
    }
  });
});
