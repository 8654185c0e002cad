// The bundled starter environments meet the bar set for them: valid specs,
// realistic size, enough tests, the runner called directly. (That each one is
// accepted by `env check` under bwrap is the main job CI runs.)
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { sourceDir, starterEnvs } from '../../src/env/load.js';
import { matchesAny } from '../../src/util/glob.js';

function files(dir: string, root = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.') || name === '__pycache__') return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p, root) : [relative(root, p)];
  });
}

function codeLines(text: string): number {
  return text.split('\n').filter((l) => {
    const t = l.trim();
    return t !== '' && !t.startsWith('//') && !t.startsWith('#') && !t.startsWith('*') && !t.startsWith('/*');
  }).length;
}

const envs = starterEnvs();

describe('starter environments', () => {
  it('number at least 12: at least 5 in JavaScript/TypeScript and 5 in Python', () => {
    assert.ok(envs.length >= 12, `${envs.length} environments`);
    assert.ok(envs.filter((e) => e.spec.language !== 'python').length >= 5);
    assert.ok(envs.filter((e) => e.spec.language === 'python').length >= 5);
  });

  for (const env of envs) {
    it(`${env.spec.name}: >= 300 source lines over >= 3 modules, >= 40 tests, direct runner`, () => {
      const dir = sourceDir(env)!;
      const all = files(dir);
      const source = all.filter((f) => /\.(js|mjs|ts|py)$/.test(f) && !matchesAny(f, env.spec.testPaths));
      const tests = all.filter((f) => matchesAny(f, env.spec.testPaths));
      const lines = source.reduce((n, f) => n + codeLines(readFileSync(join(dir, f), 'utf8')), 0);
      assert.ok(source.length >= 3, `${source.length} modules`);
      assert.ok(lines >= 300, `${lines} source lines`);
      const testText = tests.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
      const count = env.spec.language === 'python' ? (testText.match(/^\s*def test_/gm) ?? []).length : (testText.match(/^\s*(it|test)\(/gm) ?? []).length;
      assert.ok(count >= 40, `${count} tests`);
      assert.notEqual(env.spec.test.command[0], 'npm');
      assert.equal(env.spec.test.report.format, env.spec.language === 'python' ? 'junit' : 'tap');
    });
  }
});
