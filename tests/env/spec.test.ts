import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSpecText } from '../../src/env/load.js';
import { SpecError, validateSpec } from '../../src/env/spec.js';

const good = {
  schema: 'frognano.environment/v1',
  name: 'demo',
  language: 'python',
  source: { path: 'repo' },
  test: { command: ['{python}', '-m', 'pytest', '--junitxml={report}'], report: { format: 'junit', from: 'file' } },
  testPaths: ['tests/**'],
};

function problems(raw: unknown): { field: string; fix: string }[] {
  try {
    validateSpec(raw, 'test');
  } catch (err) {
    assert.ok(err instanceof SpecError);
    return err.problems;
  }
  assert.fail('expected the spec to be rejected');
}

describe('environment spec', () => {
  it('accepts a good spec and fills defaults', () => {
    const spec = validateSpec(good);
    assert.equal(spec.timeoutSec, 60);
    assert.deepEqual(spec.setup, []);
    assert.deepEqual(spec.layer, []);
    assert.deepEqual(spec.test.env, {});
  });

  it('names the field and the fix for each problem', () => {
    const found = problems({ ...good, name: 'Bad Name', language: 'cobol', timeoutSec: -1 });
    const fields = found.map((p) => p.field).sort();
    assert.deepEqual(fields, ['language', 'name', 'timeoutSec']);
    for (const p of found) assert.ok(p.fix.length > 5, `fix for ${p.field}`);
  });

  it('rejects a package script as the test command', () => {
    const found = problems({ ...good, test: { ...good.test, command: ['npm', 'test'] } });
    assert.equal(found[0]!.field, 'test.command');
    assert.match(found[0]!.fix, /runner directly/);
  });

  it('requires {report} when the report is read from a file', () => {
    const found = problems({ ...good, test: { ...good.test, command: ['{python}', '-m', 'pytest'] } });
    assert.equal(found[0]!.field, 'test.command');
    assert.match(found[0]!.fix, /\{report\}/);
  });

  it('rejects unknown fields, bad schema, escaping paths and a missing test section', () => {
    const found = problems({ ...good, schema: 'v0', tset: {}, test: undefined, testPaths: ['../secrets/**'] });
    const fields = found.map((p) => p.field).sort();
    assert.deepEqual(fields, ['schema', 'test', 'testPaths', 'tset']);
  });

  it('reports invalid JSON with its location', () => {
    assert.throws(
      () => parseSpecText('{"name": ', '/x/environment.json'),
      (err: Error) => {
        assert.ok(err instanceof SpecError);
        assert.match(err.message, /\/x\/environment\.json/);
        assert.match(err.message, /not valid JSON/);
        return true;
      },
    );
  });
});
