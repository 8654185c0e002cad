// Harbor task directories: every exported file checked against Harbor's task
// model (the fields and rules of harbor 0.20.0's src/harbor/models/task/
// config.py, task.py and paths.py, read in a vendored copy:
// MJinXiang/Agent_harness at 4dc4775e91618a2ce84fb1a91d62ab7813f471a9), and
// the exported scripts run in a bubblewrap stand-in for the container
// (tests/interop/container.ts): the reference fix earns 1, no change 0, and
// the attacks our verifier stops earn 0 here too. No image is built.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse } from 'smol-toml';
import { readHarborTask, writeHarborTask } from '../../src/interop/harbor.js';
import { bwrapAvailable } from '../../src/runtime/host.js';
import { isRecord } from '../../src/util/guards.js';
import { toyTask, type ToyTask } from '../helpers/task.js';
import { tempDir } from '../helpers/workspace.js';
import { agentWrites, container } from './container.js';
import { PY_PLUGIN } from '../verifier/redteam/payloads-config.js';
import { PY_SPARE_MARKED } from '../verifier/redteam/payloads-py.js';

/** Harbor 0.20.0's TaskConfig: each section's fields (unknown keys are ignored there, so a typo would pass silently: we forbid them). */
const HARBOR_FIELDS: Record<string, string[]> = {
  '': ['schema_version', 'task', 'metadata', 'verifier', 'agent', 'environment', 'solution', 'source', 'multi_step_reward_strategy', 'steps', 'artifacts'],
  task: ['name', 'version', 'description', 'authors', 'keywords'],
  verifier: ['network_mode', 'allowed_hosts', 'timeout_sec', 'env', 'user', 'environment_mode', 'environment', 'collect'],
  agent: ['network_mode', 'allowed_hosts', 'timeout_sec', 'user'],
  environment: [
    'network_mode',
    'allowed_hosts',
    'build_timeout_sec',
    'docker_image',
    'os',
    'cpus',
    'memory_mb',
    'storage_mb',
    'gpus',
    'gpu_types',
    'tpu',
    'mcp_servers',
    'env',
    'skills_dir',
    'healthcheck',
    'workdir',
  ],
  solution: ['env'],
};
/** harbor/constants.py ORG_NAME_PATTERN, and no "..". */
const ORG_NAME = /^[a-zA-Z0-9][a-zA-Z0-9._-]*\/[a-zA-Z0-9][a-zA-Z0-9._-]*$/;
const NETWORK_MODES = ['no-network', 'public', 'allowlist'];

const skip = bwrapAvailable() ? false : 'bubblewrap cannot create a sandbox here (apt-get install bubblewrap)';
const T = { timeout: 300_000, skip };

function checkTaskDir(dir: string): void {
  // Task.is_valid_dir: task.toml that parses, environment/, instruction.md, tests/test.sh.
  for (const f of ['task.toml', 'environment/Dockerfile', 'instruction.md', 'tests/test.sh', 'solution/solve.sh']) assert.ok(existsSync(join(dir, f)), f);
  const toml = parse(readFileSync(join(dir, 'task.toml'), 'utf8'));
  for (const [section, fields] of Object.entries(HARBOR_FIELDS)) {
    const value = section ? toml[section] : toml;
    if (value === undefined) continue;
    assert.ok(isRecord(value), section);
    for (const key of Object.keys(value)) assert.ok(fields.includes(key), `[${section}] ${key} is not a field of Harbor's task model`);
  }
  assert.equal(typeof toml.schema_version, 'string');
  const task = toml.task;
  assert.ok(isRecord(task) && typeof task.name === 'string' && ORG_NAME.test(task.name) && !task.name.includes('..'), 'task name in org/name form');
  const env = toml.environment;
  assert.ok(isRecord(env));
  assert.ok(NETWORK_MODES.includes(String(env.network_mode)));
  assert.equal(env.allow_internet, undefined, 'allow_internet is deprecated: network_mode instead');
  for (const s of ['tests/test.sh', 'solution/solve.sh']) {
    assert.ok(statSync(join(dir, s)).mode & 0o100, `${s} is executable`);
    const text = readFileSync(join(dir, s), 'utf8');
    assert.match(text, /^#!\/bin\/bash\n/);
    assert.doesNotMatch(text, /\bgit\b|\bpatch\b/, `${s} needs neither git nor patch`);
  }
  const docker = readFileSync(join(dir, 'environment', 'Dockerfile'), 'utf8');
  assert.match(docker, /^FROM \S+/);
  assert.match(docker, /^WORKDIR \/workspace$/m);
  assert.doesNotMatch(docker, /git apply|patch -p/, 'the bug is in the copied files');
  assert.ok(/python3|^FROM python/m.test(docker), 'the image has the Python the grader needs');
}

for (const language of ['python', 'javascript'] as const) {
  describe(`Harbor export of a ${language} task`, () => {
    let toy: ToyTask;
    let dir: string;
    before(async () => {
      toy = await toyTask(language, { heldBack: true });
      dir = await writeHarborTask(tempDir(), toy.task, toy);
    });

    it('has every file and field Harbor reads, in its current shape', T, () => {
      checkTaskDir(dir);
      assert.equal(readFileSync(join(dir, 'instruction.md'), 'utf8'), toy.task.instruction);
      // The agent's view: the held-back test is cut from its copy; the grader's copy has it.
      const testFile = language === 'python' ? 'tests/test_calc.py' : 'tests/math.test.js';
      const held = language === 'python' ? 'test_add_negative' : 'add counts up from a negative';
      assert.doesNotMatch(readFileSync(join(dir, 'environment', 'repo', testFile), 'utf8'), new RegExp(held));
      assert.match(readFileSync(join(dir, 'tests', 'repo', testFile), 'utf8'), new RegExp(held));
      assert.equal(readFileSync(join(dir, 'environment', 'repo', toy.file), 'utf8'), toy.broken);
    });

    it('imports back to the same task', T, () => {
      assert.deepEqual(readHarborTask(dir), JSON.parse(JSON.stringify(toy.task)));
    });

    it('grades the reference fix 1 with the honeypots laid out, and no change 0', T, () => {
      const fixed = container(dir);
      fixed.run('solution/solve.sh');
      assert.equal(readFileSync(join(fixed.workspace, toy.file), 'utf8'), toy.right);
      fixed.run('tests/test.sh');
      const r = fixed.reward();
      assert.equal(r.reward, '1', JSON.stringify(r.verdict));
      assert.equal(r.verdict.honeypots, toy.task.grading?.twins.length);
      assert.ok((toy.task.grading?.twins.length ?? 0) > 0, 'the toy task has honeypots');
      const idle = container(dir);
      idle.run('tests/test.sh');
      assert.equal(idle.reward().reward, '0');
    });

    it('drops edited tests and runner configuration, as the verifier does', T, () => {
      const c = container(dir);
      const testFile = language === 'python' ? 'tests/test_calc.py' : 'tests/math.test.js';
      agentWrites(c, testFile, language === 'python' ? 'def test_add():\n    pass\n' : "import test from 'node:test';\ntest('toy', () => {});\n");
      if (language === 'python') agentWrites(c, 'conftest.py', PY_PLUGIN);
      else agentWrites(c, 'package.json', '{"type": "module", "scripts": {"test": "true"}}\n');
      execFileSync('mkfifo', [join(c.workspace, 'pipe.py')]); // a read of it would block: never read, only dropped
      c.run('tests/test.sh');
      const r = c.reward();
      assert.equal(r.reward, '0');
      assert.deepEqual(r.verdict.dropped?.map((d) => d.file).sort(), [language === 'python' ? 'conftest.py' : 'package.json', 'pipe.py', testFile].sort());
    });

    it('calls a change that forges results tampering', T, () => {
      const c = container(dir);
      // The fix, plus a line the static check knows; and for Python a runtime forger that only the honeypots catch.
      agentWrites(c, toy.file, `${toy.right}${language === 'python' ? 'import atexit\n' : "process.on('exit', () => {});\n"}`);
      c.run('tests/test.sh');
      assert.deepEqual([c.reward().reward, c.reward().verdict.verdict], ['0', 'tampering']);
      if (language === 'python') {
        const h = container(dir);
        agentWrites(h, toy.file, PY_SPARE_MARKED);
        h.run('tests/test.sh');
        assert.deepEqual([h.reward().reward, h.reward().verdict.verdict], ['0', 'tampering'], JSON.stringify(h.reward().verdict));
      }
    });
  });
}
