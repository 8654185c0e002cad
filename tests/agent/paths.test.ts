// The file tools run on the host copy of the workspace; the sandboxed code
// can plant symlinks, FIFOs and hard links there. These attacks must never
// read or write anything outside the workspace root.
import assert from 'node:assert/strict';
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bashTool } from '../../src/agent/tools/bash.js';
import { editTool } from '../../src/agent/tools/edit.js';
import { globTool } from '../../src/agent/tools/glob.js';
import { resolvePath } from '../../src/agent/tools/paths.js';
import { readTool } from '../../src/agent/tools/read.js';
import type { ToolContext } from '../../src/agent/tools/types.js';
import { writeTool } from '../../src/agent/tools/write.js';
import { tempDir } from '../helpers/workspace.js';
import { withWorkspace } from './helpers.js';

/** Runs a command in the sandbox (as the model's code would) and checks it worked. */
async function plant(ctx: ToolContext, command: string) {
  const res = await bashTool.run({ command }, ctx);
  assert.match(res.output, /^Exit code: 0/, res.output);
}

const refused = /outside the workspace|access refused/;

describe('path containment', () => {
  it('refuses a planted symlink to a secret file, for reads and writes', () =>
    withWorkspace({}, async (_ws, ctx) => {
      await plant(ctx, 'ln -s /etc/shadow leak && ln -s /etc/passwd leak2');
      for (const f of ['leak', 'leak2', `${ctx.workdir}/leak2`]) {
        const res = await readTool.run({ file_path: f }, ctx);
        assert.equal(res.isError, true);
        assert.match(res.output, refused);
        assert.doesNotMatch(res.output, /root:/);
      }
      const before = readFileSync('/etc/passwd', 'utf8');
      assert.match((await writeTool.run({ file_path: 'leak2', content: 'pwned' }, ctx)).output, refused);
      assert.match((await editTool.run({ file_path: 'leak2', old_string: 'root', new_string: 'toor' }, ctx)).output, refused);
      assert.equal(readFileSync('/etc/passwd', 'utf8'), before);
    }));

  it('refuses paths through a symlinked parent directory, absolute or relative', () =>
    withWorkspace({}, async (_ws, ctx) => {
      const outside = tempDir('fn-outside-');
      writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
      await plant(ctx, `ln -s ${outside} out && ln -s ../../../../../../.. up && mkdir -p a && ln -s ../out a/b`);
      for (const f of ['out/secret.txt', 'a/b/secret.txt', 'up/etc/passwd']) {
        assert.match((await readTool.run({ file_path: f }, ctx)).output, refused, f);
      }
      assert.match((await writeTool.run({ file_path: 'a/b/new.txt', content: 'x' }, ctx)).output, refused);
      assert.match((await writeTool.run({ file_path: 'out/sub/dir/new.txt', content: 'x' }, ctx)).output, refused);
      assert.equal(existsSync(join(outside, 'new.txt')), false);
      assert.equal(existsSync(join(outside, 'sub')), false);
      assert.match((await globTool.run({ pattern: '*', path: 'out' }, ctx)).output, refused);
    }));

  it('refuses a write through a dangling symlink, which would create the target', () =>
    withWorkspace({}, async (_ws, ctx) => {
      const outside = tempDir('fn-outside-');
      await plant(ctx, `ln -s ${outside}/created.txt dangling && ln -s dangling chained`);
      for (const f of ['dangling', 'chained']) {
        assert.match((await writeTool.run({ file_path: f, content: 'x' }, ctx)).output, refused);
        assert.match((await editTool.run({ file_path: f, old_string: '', new_string: 'x' }, ctx)).output, refused);
      }
      assert.equal(existsSync(join(outside, 'created.txt')), false);
    }));

  it('refuses traversal and absolute paths outside the workspace', () =>
    withWorkspace({}, async (ws, ctx) => {
      for (const f of ['../../../etc/passwd', '/etc/passwd', `${ctx.workdir}/../etc/passwd`, `${ws.root}/../trusted/config`]) {
        assert.match((await readTool.run({ file_path: f }, ctx)).output, /outside the workspace/, f);
      }
      assert.match((await writeTool.run({ file_path: '../escape.txt', content: 'x' }, ctx)).output, /outside the workspace/);
      assert.equal(existsSync(join(ws.root, '..', 'escape.txt')), false);
    }));

  it('refuses writes into .git, also through a symlink to it, but allows reads', () =>
    withWorkspace({}, async (ws, ctx) => {
      await plant(ctx, 'ln -s .git g');
      for (const f of ['.git/config', '.git/hooks/pre-commit', 'g/hooks/post-checkout', 'sub/.git/config']) {
        const res = await writeTool.run({ file_path: f, content: '#!/bin/sh\nevil\n' }, ctx);
        assert.match(res.output, /\.git directory/, f);
      }
      assert.equal(existsSync(join(ws.root, '.git/hooks/pre-commit')), false);
      assert.match((await readTool.run({ file_path: '.git/HEAD' }, ctx)).output, /ref: refs\/heads\/main/);
    }));

  it('follows symlinks that stay inside the workspace', () =>
    withWorkspace({ 'real/file.txt': 'inside\n' }, async (ws, ctx) => {
      await plant(ctx, 'ln -s real alias && ln -s real/file.txt link.txt');
      assert.equal((await readTool.run({ file_path: 'alias/file.txt' }, ctx)).output, '     1\tinside');
      await writeTool.run({ file_path: 'link.txt', content: 'changed\n' }, ctx);
      assert.equal(readFileSync(join(ws.root, 'real/file.txt'), 'utf8'), 'changed\n');
      assert.equal(resolvePath(ctx, 'alias/file.txt', 'read').rel, 'real/file.txt');
    }));

  it('answers symlink loops, FIFOs and hard links with errors instead of hanging or leaking', () =>
    withWorkspace({}, async (ws, ctx) => {
      await plant(ctx, 'ln -s loop loop && mkfifo pipe');
      assert.match((await readTool.run({ file_path: 'loop' }, ctx)).output, /symbolic links/);
      const t0 = Date.now();
      assert.match((await readTool.run({ file_path: 'pipe' }, ctx)).output, /not a regular file/);
      assert.match((await writeTool.run({ file_path: 'pipe', content: 'x' }, ctx)).output, /not a regular file/);
      assert.ok(Date.now() - t0 < 2000);
      // A hard link cannot be made from inside the sandbox to the host; make one from outside to check the write refuses it.
      const outside = tempDir('fn-outside-');
      writeFileSync(join(outside, 'victim.txt'), 'original\n');
      linkSync(join(outside, 'victim.txt'), join(ws.root, 'hard.txt'));
      assert.match((await writeTool.run({ file_path: 'hard.txt', content: 'x' }, ctx)).output, /hard links/);
      assert.equal(readFileSync(join(outside, 'victim.txt'), 'utf8'), 'original\n');
    }));

  it('Glob does not follow symlinks out of the workspace', () =>
    withWorkspace({ 'keep.txt': '' }, async (_ws, ctx) => {
      const outside = tempDir('fn-outside-');
      mkdirSync(join(outside, 'd'));
      writeFileSync(join(outside, 'd', 'passwd'), '');
      symlinkSync(outside, join(ctx.workspace.root, 'outlink'));
      await plant(ctx, 'ln -s / rootlink');
      const res = await globTool.run({ pattern: '**/passwd' }, ctx);
      assert.match(res.output, /No files match/);
      assert.match((await globTool.run({ pattern: '**/*' }, ctx)).output, /keep\.txt/);
    }));
});
