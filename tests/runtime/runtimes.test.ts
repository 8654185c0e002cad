import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DockerRuntime, dockerUnavailableReason } from '../../src/runtime/docker.js';
import { LocalRuntime } from '../../src/runtime/local.js';
import { selectRuntime } from '../../src/runtime/select.js';
import { makeWorkspace } from '../helpers/workspace.js';

describe('local runtime', () => {
  it('says loudly that it is not isolated', () => {
    const warnings: string[] = [];
    const rt = selectRuntime({ name: 'local', warn: (m) => warnings.push(m) });
    assert.equal(rt.isolated, false);
    assert.match(warnings.join(), /NOT isolated/);
  });

  it('runs in the workspace directory and still enforces the timeout', async () => {
    const ws = await makeWorkspace(new LocalRuntime(), { 'a.txt': 'A' });
    try {
      const ok = await ws.exec({ argv: ['cat', 'a.txt'], timeoutMs: 5000 });
      assert.equal(ok.stdout, 'A');
      const slow = await ws.exec({ argv: ['sh', '-c', 'sleep 30'], timeoutMs: 300 });
      assert.equal(slow.timedOut, true);
    } finally {
      ws.dispose();
    }
  });

  it('reports a command that cannot start', async () => {
    const ws = await makeWorkspace(new LocalRuntime());
    try {
      const res = await ws.exec({ argv: ['frognano-no-such-program'], timeoutMs: 5000 });
      assert.notEqual(res.exitCode, 0);
    } finally {
      ws.dispose();
    }
  });
});

const noDocker = dockerUnavailableReason();

describe('docker runtime', () => {
  it('builds a locked-down docker run command', () => {
    const rt = new DockerRuntime('python:3.11');
    const argv = rt.command(
      { root: '/w', outDir: '/o', layers: [{ rel: 'node_modules', host: '/l' }], uid: 1234 },
      { argv: ['pytest'], timeoutMs: 1000 },
      'c1',
    );
    const s = argv.join(' ');
    assert.match(s, /--network none/);
    assert.match(s, /--pids-limit 256/);
    assert.match(s, /--cap-drop ALL/);
    assert.match(s, /-v \/l:\/workspace\/node_modules:ro/);
    assert.match(s, /--user 1234:1234/);
  });

  it('is refused with the reason when no engine runs', { skip: noDocker ? false : 'a Docker engine is running here' }, () => {
    assert.throws(() => selectRuntime({ name: 'docker', image: 'python:3.11' }), /runtime "docker" is unavailable/);
  });

  it('runs a command in a container', { skip: noDocker ? `no Docker engine: ${noDocker}` : false }, async () => {
    const rt = new DockerRuntime('busybox');
    const ws = await makeWorkspace(rt, { 'a.txt': 'A' });
    try {
      const res = await ws.exec({ argv: ['cat', 'a.txt'], timeoutMs: 60000 });
      assert.equal(res.stdout, 'A');
    } finally {
      ws.dispose();
    }
  });
});
