// Attacks on the bwrap sandbox. Each asserts that the host is untouched.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { BwrapRuntime } from '../../src/runtime/bwrap.js';
import { bwrapAvailable } from '../../src/runtime/host.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import { makeWorkspace, processesOf, tempDir, waitFor } from '../helpers/workspace.js';
import { removalsSettled } from '../../src/workspace/cleanup.js';

const skip = bwrapAvailable() ? false : 'bubblewrap cannot create a sandbox here (apt-get install bubblewrap)';
const runtime = new BwrapRuntime();
const sh = (script: string, timeoutMs = 10000, limits = {}) => ({ argv: ['bash', '-c', script], timeoutMs, limits });

// Every check holds for commands that each get a sandbox (the verifier's) and
// for commands in one sandbox kept for an agent's episode.
for (const kept of [false, true])
  describe(kept ? 'bwrap containment, one sandbox kept for the episode' : 'bwrap containment, a sandbox per command', { skip }, () => {
    let ws: Workspace;
    before(async () => {
      ws = await makeWorkspace(runtime, { 'src/app.js': 'export const x = 1;\n' });
      if (kept) ws.keepSandbox();
    });
    after(() => ws?.dispose());

    it('runs commands in the workspace, which is writable', async () => {
      const res = await ws.exec(sh('pwd; echo changed > src/app.js; cat src/app.js; id -u'));
      assert.equal(res.exitCode, 0, res.stderr);
      assert.match(res.stdout, /^\/workspace\nchanged\n/);
      assert.notEqual(res.stdout.trim().split('\n').pop(), '0', 'runs as an unprivileged uid');
    });

    it('has no network: a server on the host loopback is unreachable', async () => {
      let connections = 0;
      const server = createServer((s) => {
        connections++;
        s.end();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const port = (server.address() as { port: number }).port;
      try {
        const res = await ws.exec({
          argv: [
            'node',
            '-e',
            `require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0); }).on('error', (e) => { console.log(e.code); process.exit(3); })`,
          ],
          timeoutMs: 10000,
        });
        assert.equal(res.exitCode, 3, res.stdout + res.stderr);
        assert.doesNotMatch(res.stdout, /CONNECTED/);
        const dns = await ws.exec(sh('getent hosts example.com || echo NO-DNS'));
        assert.match(dns.stdout, /NO-DNS/);
        assert.equal(connections, 0);
      } finally {
        server.close();
      }
    });

    it('cannot write outside the workspace; the host is untouched', async () => {
      const hostDir = tempDir('fn-victim-');
      const res = await ws.exec(
        sh(
          `for p in /usr/pwned /etc/pwned ${hostDir}/pwned /pwned ${ws.dir}/pwned; do (echo x > "$p") 2>/dev/null && echo "WROTE $p"; done; echo x > /tmp/scratch && echo "TMP-OK"`,
        ),
      );
      assert.doesNotMatch(res.stdout, /WROTE \/(usr|etc|pwned)/);
      assert.doesNotMatch(res.stdout, new RegExp(`WROTE ${hostDir}`));
      for (const p of ['/usr/pwned', '/etc/pwned', join(hostDir, 'pwned'), '/pwned', join(ws.dir, 'pwned')]) {
        assert.equal(existsSync(p), false, `${p} must not exist on the host`);
      }
      assert.deepEqual(readdirSync(hostDir), []);
      assert.match(res.stdout, /TMP-OK/, 'a private /tmp is writable');
      assert.equal(existsSync('/tmp/scratch'), false, 'the private /tmp is not the host /tmp');
    });

    it("cannot read the host's home directory, secrets or environment", async () => {
      const secretFile = join(homedir(), '.frognano-test-secret');
      writeFileSync(secretFile, 'TOP-SECRET-TOKEN');
      process.env.FROGNANO_TEST_SECRET = 'ENV-SECRET-VALUE';
      try {
        const res = await ws.exec(
          sh(`cat ${secretFile} 2>&1; ls -a ${homedir()} 2>&1; cat /etc/shadow 2>&1; ls /home 2>&1; cat /root/.ssh/* 2>&1; env; cat /proc/1/environ 2>&1`),
        );
        assert.doesNotMatch(res.stdout, /TOP-SECRET-TOKEN/);
        assert.doesNotMatch(res.stdout, /ENV-SECRET-VALUE/);
        assert.doesNotMatch(res.stdout, /^root:/m);
        const listing = await ws.exec(sh(`ls -a ${homedir()} 2>/dev/null`));
        const names = listing.stdout.split('\n');
        assert.ok(!names.includes('.frognano-test-secret'), 'the home directory is not visible');
        assert.ok(!names.includes('.npmrc') && !names.includes('.ssh') && !names.includes('.bash_history'));
      } finally {
        rmSync(secretFile, { force: true });
        delete process.env.FROGNANO_TEST_SECRET;
      }
    });

    it('kills a fork bomb within the timeout and leaves no process behind', async () => {
      const started = Date.now();
      const res = await ws.exec(sh(':(){ :|:& };:; sleep 100', 3000, { maxProcs: 64 }));
      const elapsed = Date.now() - started;
      assert.equal(res.timedOut, true);
      assert.ok(elapsed < 8000, `took ${elapsed} ms`);
      assert.ok(await waitFor(() => processesOf(ws.mounts.uid).length === 0), 'no process of the sandbox uid survives');
    });

    it('kills a sleep-forever within the timeout, with its whole process tree', async () => {
      const started = Date.now();
      const res = await ws.exec(sh('(sleep infinity &) ; (setsid sleep infinity &) ; sleep infinity', 1000));
      assert.equal(res.timedOut, true);
      assert.ok(Date.now() - started < 5000);
      assert.ok(await waitFor(() => processesOf(ws.mounts.uid).length === 0), 'no process of the sandbox uid survives');
    });

    it('cuts off a command printing gigabytes without the host growing', async () => {
      global.gc?.();
      const before = process.memoryUsage().rss;
      const res = await ws.exec({ argv: ['bash', '-c', 'head -c 4000000000 /dev/zero; echo done'], timeoutMs: 30000, limits: { maxOutputBytes: 1024 * 1024 } });
      const grown = process.memoryUsage().rss - before;
      assert.equal(res.outputLimited, true);
      assert.equal(res.stdout.length, 1024 * 1024);
      assert.ok(grown < 64 * 1024 * 1024, `host grew by ${(grown / 1024 / 1024).toFixed(0)} MiB`);
      assert.ok(await waitFor(() => processesOf(ws.mounts.uid).length === 0));
    });

    it('bounds memory and file size', async () => {
      const mem = await ws.exec({ argv: ['python3', '-c', 'x = bytearray(2 * 1024**3); print("ALLOCATED")'], timeoutMs: 20000, limits: { memoryMb: 256 } });
      assert.doesNotMatch(mem.stdout, /ALLOCATED/);
      const file = await ws.exec(sh('head -c 20000000 /dev/zero > big.bin; ls -l big.bin', 20000, { maxFileMb: 5 }));
      assert.match(file.stdout, /5242880 /);
    });

    it('leaves no temporary directory after a timeout and dispose', async () => {
      const base = tempDir('fn-base-');
      const w = await makeWorkspace(runtime, { 'a.txt': 'a' }, base);
      if (kept) w.keepSandbox();
      const res = await w.exec(sh('sleep infinity', 500));
      assert.equal(res.timedOut, true);
      w.dispose();
      await removalsSettled();
      assert.equal(existsSync(w.dir), false);
      assert.ok(await waitFor(() => processesOf(w.mounts.uid).length === 0));
    });
  });
