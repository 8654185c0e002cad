import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashTool } from '../../src/agent/tools/bash.js';
import { editTool } from '../../src/agent/tools/edit.js';
import { expandBraces, globTool, MAX_GLOB_RESULTS } from '../../src/agent/tools/glob.js';
import { toolset, toolSpecs } from '../../src/agent/tools/index.js';
import { readTool } from '../../src/agent/tools/read.js';
import { writeTool } from '../../src/agent/tools/write.js';
import { runtime, withWorkspace } from './helpers.js';

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('Read', () => {
  it('numbers lines from 1 and honours offset and limit', () =>
    withWorkspace({ 'a.txt': lines(10) }, async (_ws, ctx) => {
      const all = await readTool.run({ file_path: 'a.txt' }, ctx);
      assert.equal(all.isError, undefined);
      assert.equal(all.output.split('\n')[0], '     1\tline 1');
      assert.equal(all.output.split('\n').length, 10); // no footer: the whole file was shown
      const win = await readTool.run({ file_path: 'a.txt', offset: 4, limit: 3 }, ctx);
      assert.deepEqual(win.output.split('\n').slice(0, 3), ['     4\tline 4', '     5\tline 5', '     6\tline 6']);
      assert.match(win.output, /showing lines 4-6 of 10; use offset=7/);
    }));

  it('accepts absolute paths under the workdir the model sees', () =>
    withWorkspace({ 'src/x.py': 'x = 1\n' }, async (_ws, ctx) => {
      const res = await readTool.run({ file_path: `${ctx.workdir}/src/x.py` }, ctx);
      assert.equal(res.output, '     1\tx = 1');
    }));

  it('says when a file is longer than the default window', () =>
    withWorkspace({ 'big.txt': lines(2500) }, async (_ws, ctx) => {
      const res = await readTool.run({ file_path: 'big.txt' }, ctx);
      assert.match(res.output, /showing lines 1-2000 of 2500; use offset=2001/);
    }));

  it('errors for a missing file, a directory, a bad offset and binary data', () =>
    withWorkspace({ 'src/a.txt': 'a\n', 'bin.dat': 'ab\0cd' }, async (_ws, ctx) => {
      const missing = await readTool.run({ file_path: 'nope.txt' }, ctx);
      assert.equal(missing.isError, true);
      assert.match(missing.output, /does not exist/);
      assert.match((await readTool.run({ file_path: 'src' }, ctx)).output, /is a directory/);
      assert.match((await readTool.run({ file_path: 'src/a.txt', offset: 5 }, ctx)).output, /past the end .* 1 lines/);
      assert.match((await readTool.run({ file_path: 'src/a.txt', offset: 0 }, ctx)).output, /integer >= 1/);
      assert.match((await readTool.run({ file_path: 'bin.dat' }, ctx)).output, /binary/);
      assert.match((await readTool.run({}, ctx)).output, /"file_path" is required/);
    }));
});

describe('Write', () => {
  it('creates parents, overwrites, and leaves files the sandbox can change', () =>
    withWorkspace({}, async (ws, ctx) => {
      const res = await writeTool.run({ file_path: 'deep/er/new.txt', content: 'one\ntwo\n' }, ctx);
      assert.match(res.output, /Created .*deep\/er\/new.txt \(2 lines/);
      assert.equal(readFileSync(join(ws.root, 'deep/er/new.txt'), 'utf8'), 'one\ntwo\n');
      await writeTool.run({ file_path: 'deep/er/new.txt', content: 'x' }, ctx);
      assert.equal(readFileSync(join(ws.root, 'deep/er/new.txt'), 'utf8'), 'x');
      if (process.getuid?.() === 0 && runtime.isolated) assert.equal(statSync(join(ws.root, 'deep')).uid, ws.mounts.uid);
      const bash = await bashTool.run({ command: 'echo more >> deep/er/new.txt && mkdir deep/er/sub && cat deep/er/new.txt' }, ctx);
      assert.match(bash.output, /^Exit code: 0\nxmore/);
    }));
});

describe('Edit', () => {
  const file = { 'm.py': 'a = 1\nb = 1\nc = 2\n' };

  it('replaces a unique match and shows the edited lines', () =>
    withWorkspace(file, async (ws, ctx) => {
      const res = await editTool.run({ file_path: 'm.py', old_string: 'c = 2', new_string: 'c = $& 3' }, ctx);
      assert.equal(res.isError, undefined);
      assert.match(res.output, /replaced 1 occurrence\./);
      assert.match(res.output, /     3\tc = \$& 3/);
      assert.equal(readFileSync(join(ws.root, 'm.py'), 'utf8'), 'a = 1\nb = 1\nc = $& 3\n');
    }));

  it('refuses zero matches, several matches without replace_all, and old == new', () =>
    withWorkspace(file, async (ws, ctx) => {
      const none = await editTool.run({ file_path: 'm.py', old_string: 'z = 9', new_string: 'z = 0' }, ctx);
      assert.equal(none.isError, true);
      assert.match(none.output, /not found/);
      const many = await editTool.run({ file_path: 'm.py', old_string: '= 1', new_string: '= 5' }, ctx);
      assert.match(many.output, /matches 2 times/);
      assert.match((await editTool.run({ file_path: 'm.py', old_string: 'a', new_string: 'a' }, ctx)).output, /the same/);
      assert.equal(readFileSync(join(ws.root, 'm.py'), 'utf8'), file['m.py']);
    }));

  it('replaces every match with replace_all', () =>
    withWorkspace(file, async (ws, ctx) => {
      const res = await editTool.run({ file_path: 'm.py', old_string: '= 1', new_string: '= 5', replace_all: true }, ctx);
      assert.match(res.output, /replaced 2 occurrences/);
      assert.equal(readFileSync(join(ws.root, 'm.py'), 'utf8'), 'a = 5\nb = 5\nc = 2\n');
    }));

  it('creates a file from an empty old_string only when it does not exist', () =>
    withWorkspace(file, async (ws, ctx) => {
      assert.match((await editTool.run({ file_path: 'n.py', old_string: '', new_string: 'n = 1\n' }, ctx)).output, /Created/);
      assert.equal(readFileSync(join(ws.root, 'n.py'), 'utf8'), 'n = 1\n');
      assert.match((await editTool.run({ file_path: 'm.py', old_string: '', new_string: 'x' }, ctx)).output, /already exists/);
    }));
});

describe('Glob', () => {
  const files = {
    'src/a.ts': '',
    'src/b.js': '',
    'src/deep/c.ts': '',
    'README.md': '',
    'node_modules/dep/index.ts': '',
    'lib/x.ts': '',
  };

  it('lists matches sorted, relative to the workspace, skipping node_modules and .git', () =>
    withWorkspace(files, async (_ws, ctx) => {
      assert.equal((await globTool.run({ pattern: '**/*.ts' }, ctx)).output, 'lib/x.ts\nsrc/a.ts\nsrc/deep/c.ts');
      assert.equal((await globTool.run({ pattern: '*.{ts,js}', path: 'src' }, ctx)).output, 'src/a.ts\nsrc/b.js');
      assert.equal((await globTool.run({ pattern: '**/HEAD' }, ctx)).output.includes('.git'), false);
      assert.match((await globTool.run({ pattern: '*.ts' }, ctx)).output, /No files match .*use \*\*\/\*\.ts/);
    }));

  it('caps the number of results', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_GLOB_RESULTS + 5 }, (_, i) => [`f/${String(i).padStart(3, '0')}.txt`, '']));
    return withWorkspace(many, async (_ws, ctx) => {
      const out = (await globTool.run({ pattern: 'f/*.txt' }, ctx)).output.split('\n');
      assert.equal(out.length, MAX_GLOB_RESULTS + 1);
      assert.match(out.at(-1)!, /5 more matches not shown/);
    });
  });

  it('expands nested braces', () => {
    assert.deepEqual(expandBraces('a.{ts,{js,mjs}}'), ['a.ts', 'a.js', 'a.mjs']);
    assert.deepEqual(expandBraces('plain'), ['plain']);
  });
});

describe('Bash', () => {
  it('reports exit codes and interleaved stdout and stderr, in the workspace root', () =>
    withWorkspace({ 'f.txt': 'hi\n' }, async (_ws, ctx) => {
      assert.equal((await bashTool.run({ command: 'cat f.txt' }, ctx)).output, 'Exit code: 0\nhi\n');
      const res = await bashTool.run({ command: 'echo out; echo err >&2; exit 3' }, ctx);
      assert.equal(res.output, 'Exit code: 3\nout\nerr\n');
      assert.equal(res.isError, undefined); // a failing command is an observation, not a tool error
      assert.equal((await bashTool.run({ command: 'pwd' }, ctx)).output, `Exit code: 0\n${ctx.workdir}\n`);
      assert.equal((await bashTool.run({ command: 'true' }, ctx)).output, 'Exit code: 0\n(no output)');
    }));

  it("kills a command at its timeout and says so; the harness limit caps the model's timeout", () =>
    withWorkspace({}, async (_ws, ctx) => {
      const t0 = Date.now();
      const res = await bashTool.run({ command: 'echo started; sleep 30', timeout: 1 }, ctx);
      assert.match(res.output, /^Command timed out after 1 s and was killed\.\nstarted/);
      assert.ok(Date.now() - t0 < 10_000);
      const capped = await bashTool.run({ command: 'sleep 30', timeout: 1000 }, { ...ctx, commandTimeoutMs: 500 });
      assert.match(capped.output, /timed out after 0.5 s/);
    }));

  it("runs every command with the context's variables (the environment's test variables)", () =>
    withWorkspace({}, async (_ws, ctx) => {
      assert.equal((await bashTool.run({ command: 'echo "[$FROGNANO_PROBE]"' }, ctx)).output, 'Exit code: 0\n[]\n');
      const withEnv = { ...ctx, env: { FROGNANO_PROBE: 'set', PYTEST_DISABLE_PLUGIN_AUTOLOAD: '1' } };
      assert.equal(
        (await bashTool.run({ command: 'echo "[$FROGNANO_PROBE] [$PYTEST_DISABLE_PLUGIN_AUTOLOAD]"' }, withEnv)).output,
        'Exit code: 0\n[set] [1]\n',
      );
    }));

  it('leaves nothing to chance on bad arguments', () =>
    withWorkspace({}, async (_ws, ctx) => {
      assert.match((await bashTool.run({ command: '  ' }, ctx)).output, /empty/);
      assert.match((await bashTool.run({ command: 'true', timeout: -1 }, ctx)).output, /integer >= 1/);
    }));
});

describe('toolsets', () => {
  it('leaf has the five tools, bash has one', () => {
    assert.deepEqual(
      toolSpecs(toolset('leaf')).map((s) => s.function.name),
      ['Read', 'Write', 'Edit', 'Glob', 'Bash'],
    );
    assert.deepEqual(
      toolSpecs(toolset('bash')).map((s) => s.function.name),
      ['Bash'],
    );
    assert.throws(() => toolset('nope'), /unknown toolset/);
  });
});
