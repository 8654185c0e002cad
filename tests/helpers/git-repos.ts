// Git repositories the onboarding tests build: files committed (some under
// paths the project's .gitignore matches, added with --force as a project
// that commits its build does), others left on disk untracked.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIB } from './runner-repos.js';
import { tempDir } from './workspace.js';

export interface RepoLayout {
  /** Committed files. */
  files: Record<string, string>;
  /** Files left on disk but never committed (ignored build output, secrets). */
  untracked?: Record<string, string>;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

/** A git work tree at `<tmp>/<name>` with one commit of `files`; returns its path. */
export function gitRepo(name: string, layout: RepoLayout, parent = tempDir('fn-gitrepo-')): string {
  const dir = join(parent, name);
  write(dir, layout.files);
  const g = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir, stdio: 'pipe' });
  g('init', '-q', '-b', 'main');
  g('add', '--force', '--', ...Object.keys(layout.files));
  g('commit', '-q', '-m', 'initial');
  write(dir, layout.untracked ?? {});
  return dir;
}

/** The runner fixtures' library (add, clamp, mean), tested with node:test: `npm test` runs `node --test`. */
export const NODE_LIB = LIB;

export function nodeLibTests(from: string, extra = ''): string {
  return `const test = require('node:test');
const assert = require('node:assert');
const { add, clamp, mean } = require('${from}');
test('clamps low', () => assert.strictEqual(clamp(-1, 0, 10), 0));
test('clamps high', () => assert.strictEqual(clamp(11, 0, 10), 10));
test('keeps inside', () => assert.strictEqual(clamp(5, 0, 10), 5));
test('mean of values', () => assert.strictEqual(mean([1, 2, 6]), 3));
test('mean of nothing', () => assert.strictEqual(mean([]), 0));
test('adds', () => assert.strictEqual(add(2, 3), 5));
${extra}`;
}

export const NODE_PKG = JSON.stringify({ name: 'lib', version: '1.0.0', private: true, scripts: { test: 'node --test test/' } }, null, 2);
