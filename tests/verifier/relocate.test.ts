import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { TestRun } from '../../src/grading/testrun.js';
import { planRelocation, relocate, restoreIds } from '../../src/verifier/relocate.js';
import { tempDir } from '../helpers/workspace.js';

const counter = () => {
  let i = 0;
  return () => `n${++i}`;
};

function runOf(ids: string[]): TestRun {
  return {
    outcome: 'completed', exitCode: 1, exitAgrees: true, durationMs: 1, outputTail: '',
    tests: new Map(ids.map((id) => [id, { id, status: 'passed' as const, file: id.split('::')[0] }])),
  };
}

describe('relocating required pytest files', () => {
  it('plans one fresh name per file, in its own folder, in the twins’ pattern', () => {
    const plan = planRelocation(
      ['tests/test_a.py::test_x', 'tests/test_a.py::TestK::test_y[1-2]', 'tests/unit/test_b.py::test_z', '/etc/x.py::t', 'tests/../x.py::t', 'suite > case'],
      'tests/test_zz_canary_{nonce}.py', counter(),
    );
    assert.deepEqual(plan, [
      { from: 'tests/test_a.py', to: 'tests/test_zz_n1.py' },
      { from: 'tests/unit/test_b.py', to: 'tests/unit/test_zz_n2.py' },
    ]);
    assert.deepEqual(planRelocation(['tests/test_a.py::test_x'], undefined), [], 'no collected pattern known: nothing moves');
    assert.deepEqual(planRelocation(['a > b'], 'tests/zz-canary-{nonce}.test.js'), [], 'node:test ids name no file');
  });

  it('moves regular files only and maps results back, flagging any result under an old name', () => {
    const root = tempDir('reloc-');
    mkdirSync(join(root, 'tests'));
    writeFileSync(join(root, 'tests/test_a.py'), 'def test_x(): pass\n');
    symlinkSync('/etc/hostname', join(root, 'tests/test_link.py'));
    const moved = relocate(root, [
      { from: 'tests/test_a.py', to: 'tests/test_zz_n1.py' },
      { from: 'tests/test_link.py', to: 'tests/test_zz_n2.py' },
      { from: 'tests/test_gone.py', to: 'tests/test_zz_n3.py' },
    ]);
    assert.deepEqual(moved, [{ from: 'tests/test_a.py', to: 'tests/test_zz_n1.py' }]);
    assert.equal(existsSync(join(root, 'tests/test_a.py')), false);
    assert.equal(readFileSync(join(root, 'tests/test_zz_n1.py'), 'utf8'), 'def test_x(): pass\n');

    const run = runOf(['tests/test_zz_n1.py::test_x', 'tests/test_zz_n1.py::K::test_y[a]', 'tests/test_other.py::test_o']);
    assert.deepEqual(restoreIds(run, moved), []);
    assert.deepEqual([...run.tests.keys()], ['tests/test_a.py::test_x', 'tests/test_a.py::K::test_y[a]', 'tests/test_other.py::test_o']);
    assert.equal(run.tests.get('tests/test_a.py::test_x')!.file, 'tests/test_a.py');

    const forged = runOf(['tests/test_zz_n1.py::test_x', 'tests/test_a.py::test_x']);
    forged.tests.get('tests/test_zz_n1.py::test_x')!.status = 'failed';
    assert.deepEqual(restoreIds(forged, moved), ['tests/test_a.py::test_x']);
    assert.deepEqual([...forged.tests.keys()], ['tests/test_a.py::test_x']);
    assert.equal(forged.tests.get('tests/test_a.py::test_x')!.status, 'failed', 'the real result, not the forged pass');
  });
});
