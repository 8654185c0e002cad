// The README's "A short tour", run: every command of its table and of its
// eval and solve sections, read from README.md itself, so a line no test runs
// fails here. Each runs in small form (a tiny environment, small budgets,
// scripted models named as scripted) in a fresh folder standing for the
// checkout, whose ./.frognano is the data directory the README's paths name:
// the eval and solve examples run word for word but for their placeholders.
// One training run serves every line that needs one.
//
// Which test runs each line:
//   frognano env list                                   here
//   frognano env add <path|git-url>                     here, both
//   frognano env add --from-catalogue NAME              tests/env/catalogue.test.ts
//   frognano env check [name…|--all]                    here
//   frognano synth --env all --n 50 --seed 1            here (--env tiny-stats --n 3)
//   frognano task list | validate | audit | export | import   here, each
//   frognano traj export --format atif|mini|openai      here, each, as written
//   frognano train [--curriculum frontier|uniform|static]     here (frontier, one step)
//   frognano evidence run --protocol reduced|full       tests/cli/evidence.test.ts
//   frognano train --learner tinker --model M ...       tests/cli/lm.test.ts
//   frognano serve (or train --serve)                   here; train --serve: tests/serve/dashboard-e2e.test.ts
//   frognano gc [--run R] [--keep-runs N] [--keep-mb M] here
//   frognano tinker-dev                                 tests/cli/lm.test.ts
//   frognano eval --tasks DIR --model M --k 4           here (scripted:oracle)
//   frognano solve --repo PATH --issue TEXT --model M   here (scripted:FILE.json)
//   frognano worker --queue redis://HOST:PORT           here (with a real Redis); its jobs: tests/queue/workers.test.ts
//   frognano queue status --queue URL                   here (with a real Redis)
//   npx frognano eval --run default ... --k 4           here, as written
//   npx frognano solve --repo ~/src/mylib ...           here, against a scripted model on a loopback server
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_AGENT_LIMITS } from '../../src/agent/limits.js';
import { RUNNERS } from '../../src/env/runners/types.js';
import { starterEnvs } from '../../src/env/load.js';
import { MIN_PASS_SHARE } from '../../src/grading/env-check.js';
import { readHandwritten } from '../../src/taskpilot/handwritten.js';
import { git } from '../../src/util/git.js';
import { handwrittenBugsDir, packageRoot } from '../../src/util/paths.js';
import { runCli } from '../helpers/cli.js';
import { killLeftovers, spawnCli } from '../helpers/cli-lm.js';
import { nodeTests } from '../helpers/env.js';
import { startScriptedModel } from '../helpers/model-server.js';
import { redisMissing, startRedis } from '../helpers/redis.js';
import { JS_BROKEN, JS_SOURCE } from '../helpers/task.js';
import { tinyTrainEnvs } from '../helpers/train-env.js';
import { tempDir } from '../helpers/workspace.js';

const README = readFileSync(join(packageRoot, 'README.md'), 'utf8');

/** The tour: from its heading to the next heading of its level. */
function tourSection(): string {
  const start = README.indexOf('\n## A short tour');
  assert.ok(start >= 0, 'the README has a "## A short tour" section');
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

/** The first code span of each table row, and each `npx frognano` line of the section's code blocks (continuations joined). */
function tourCommands(): string[] {
  const section = tourSection();
  const rows = [...section.matchAll(/^\| `(frognano (?:[^`\\]|\\.)*)`/gm)].map((m) => m[1]!.replaceAll('\\|', '|'));
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].flatMap((m) =>
    m[1]!
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('npx frognano ')),
  );
  return [...rows, ...blocks];
}

/** A README command's words after `frognano`, with placeholders replaced. */
function words(command: string, replace: Record<string, string | string[]> = {}): string[] {
  return command
    .replace(/^(npx )?frognano /, '')
    .split(/\s+/)
    .flatMap((w) => (w in replace ? replace[w]! : [w]));
}

/** A README line run by another test: the file, and a string that shows it runs the command. */
type Elsewhere = { file: string; shows: string };

const ELSEWHERE: Record<string, Elsewhere> = {
  'frognano env add --from-catalogue NAME': { file: 'tests/env/catalogue.test.ts', shows: "'env', 'add', '--from-catalogue'" },
  'frognano evidence run --protocol reduced|full': { file: 'tests/cli/evidence.test.ts', shows: "'evidence', 'run', '--protocol'" },
  'frognano train --learner tinker --model M --tokenizer DIR --tinker-url URL': { file: 'tests/cli/lm.test.ts', shows: "'train', '--learner', 'tinker'" },
  'frognano tinker-dev': { file: 'tests/cli/lm.test.ts', shows: "spawnCli(['tinker-dev'" },
  'frognano env scan LIST': { file: 'tests/onboard/scan.test.ts', shows: "'env', 'scan'" },
};

/** The lines run here, in this order (later ones use what earlier ones made). */
const HERE = [
  'frognano env add <path|git-url>',
  'frognano env list',
  'frognano env check [name…|--all]',
  'frognano synth --env all --n 50 --seed 1',
  'frognano task list | validate | audit | export | import',
  'frognano eval --tasks DIR --model M --k 4',
  'frognano train [--curriculum frontier|uniform|static]',
  'npx frognano eval --run default --model embedded --checkpoint .frognano/runs/default/policy.json --k 4',
  'frognano traj export --format atif|mini|openai',
  'frognano serve',
  'frognano gc [--run R] [--keep-runs N] [--keep-mb M]',
  'frognano solve --repo PATH --issue TEXT --model M',
  'npx frognano solve --repo ~/src/mylib --issue issue.md --model qwen3-4b --base-url http://127.0.0.1:8000/v1 [--apply]',
  'frognano worker --queue redis://HOST:PORT',
  'frognano queue status --queue URL',
];

describe('the README tour', () => {
  it('has a test for every command it shows, and names no command that is not there', () => {
    const shown = tourCommands();
    const covered = new Set([...HERE, ...Object.keys(ELSEWHERE)]);
    assert.deepEqual(
      shown.filter((c) => !covered.has(c)),
      [],
      'README commands no test runs: add them to HERE (and run them below) or ELSEWHERE',
    );
    assert.deepEqual(
      [...covered].filter((c) => !shown.includes(c)),
      [],
      'commands this test runs that the README no longer shows',
    );
  });

  it('points at tests that run the lines it does not run itself', () => {
    for (const [command, { file, shows }] of Object.entries(ELSEWHERE)) {
      const path = join(packageRoot, file);
      assert.ok(existsSync(path), `${command}: ${file} is gone`);
      assert.ok(readFileSync(path, 'utf8').includes(shows), `${command}: ${file} no longer runs ${shows}`);
    }
  });

  it('quotes the figures the code has', () => {
    const section = tourSection();
    assert.match(section, new RegExp(`The agent gets ${DEFAULT_AGENT_LIMITS.maxSteps}\\s+steps`));
    assert.match(section, new RegExp(`reject under ${MIN_PASS_SHARE * 100}% passing`));
    assert.match(section, new RegExp(`test runner \\(${RUNNERS.map((r) => r.replace('node-test', 'node:test')).join(', ')}\\)`));
    assert.match(section, new RegExp(`${readHandwritten(handwrittenBugsDir).length} hand-written bugs`));
    const starters = starterEnvs();
    const python = starters.filter((e) => e.spec.language === 'python').length;
    const names = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
    assert.match(section, new RegExp(`${names[starters.length]} small libraries`, 'i'));
    assert.match(section, new RegExp(`${names[starters.length - python]} in\\s+JavaScript/TypeScript \\(node:test\\) and ${names[python]} in Python`));
  });
});

describe('the README tour, run', () => {
  const home = process.cwd();
  const savedHome = process.env.FROGNANO_HOME;
  let root: string;
  let data: string;
  const envs = tinyTrainEnvs();
  const repoOf = (name: string) => join(envs.get(name)!.baseDir, 'repo');
  const ok = (r: { code: number; out: string; err: string }) => assert.equal(r.code, 0, `${r.out}\n${r.err}`);
  const cli = async (argv: string[]) => {
    const r = await runCli(argv);
    ok(r);
    return r;
  };
  const at = (command: string) => {
    assert.ok(HERE.includes(command), `not a tour line: ${command}`);
    return command;
  };

  before(() => {
    // A folder standing for the checkout: the data directory is its ./.frognano, as the README's paths say.
    root = tempDir('fn-tour-');
    process.chdir(root);
    delete process.env.FROGNANO_HOME;
    data = join(root, '.frognano');
  });
  after(() => {
    process.chdir(home);
    if (savedHome !== undefined) process.env.FROGNANO_HOME = savedHome;
    killLeftovers();
  });

  it(at('frognano env add <path|git-url>'), async (t) => {
    // One by its path, the other by a git URL (a local repository, cloned as a remote one would be).
    const byPath = await cli([...words(t.name, { '<path|git-url>': repoOf('tiny-stats') }), '--name', 'tiny-stats']);
    assert.match(byPath.out, /registered "tiny-stats"/);
    const repo = repoOf('tiny-text');
    const id = ['-c', 'user.email=t@t', '-c', 'user.name=t'];
    await git(['init', '-q'], { cwd: repo });
    await git([...id, 'add', '-A'], { cwd: repo });
    await git([...id, 'commit', '-qm', 'tiny-text'], { cwd: repo });
    const byUrl = await cli([...words(t.name, { '<path|git-url>': `file://${repo}` }), '--name', 'tiny-text']);
    assert.match(byUrl.out, /"git": "file:\/\/.*"[\s\S]*registered "tiny-text"/);
  });

  it(at('frognano env list'), async (t) => {
    const r = await cli(words(t.name));
    assert.match(r.out, /lru-cache\s+javascript\s+starter/);
    assert.match(r.out, /tiny-stats\s+javascript\s+added/);
  });

  it(at('frognano env check [name…|--all]'), async (t) => {
    const r = await cli(words(t.name, { '[name…|--all]': [...envs.keys()] }));
    assert.match(r.out, /tiny-stats\s+ACCEPTED/);
    assert.match(r.out, /tiny-text\s+ACCEPTED/);
  });

  it(at('frognano synth --env all --n 50 --seed 1'), async (t) => {
    const r = await cli(words(t.name, { all: 'tiny-stats', '50': '3' }));
    assert.ok(readdirSync(join(data, 'tasks')).length > 0, r.out);
  });

  it(at('frognano task list | validate | audit | export | import'), async () => {
    const tasks = join(data, 'tasks');
    assert.match((await cli(['task', 'list'])).out, /tiny-stats\./);
    const one = join(tasks, readdirSync(tasks)[0]!);
    assert.match((await cli(['task', 'validate', one])).out, /^VALID /m);
    const audit = await cli(['task', 'audit', tasks, '--sample', '1', '--runs', '1']);
    assert.match(audit.out, /audited 1 of \d+ accepted tasks/);
    const jsonl = join(tempDir(), 'tasks.jsonl');
    await cli(['task', 'export', '--format', 'swebench', '--out', jsonl]);
    const back = tempDir('fn-tour-back-');
    await cli(['task', 'import', jsonl, '--format', 'swebench', '--out', back]);
    assert.deepEqual(readdirSync(back).sort(), readdirSync(tasks).sort());
  });

  it(at('frognano eval --tasks DIR --model M --k 4'), async (t) => {
    const r = await cli(words(t.name, { DIR: join(data, 'tasks'), M: 'scripted:oracle' }));
    assert.match(r.out, /pass@1 100\.0%/);
    assert.match(r.out, new RegExp(`report written to ${join(data, 'evals')}`), 'into the data directory, not the checkout');
  });

  it(at('frognano train [--curriculum frontier|uniform|static]'), async (t) => {
    const small = ['--envs', 'tiny-stats', '--held-out', 'tiny-text', '--eval-tasks', '2', '--budget', '24', '--steps', '1', '--time-limit', '0'];
    const r = await cli([...words(t.name, { '[--curriculum': '--curriculum', 'frontier|uniform|static]': 'frontier' }), ...small]);
    assert.match(r.out, /^trained 1 step/m);
    assert.ok(existsSync(join(data, 'runs', 'default', 'policy.json')));
  });

  it(at('npx frognano eval --run default --model embedded --checkpoint .frognano/runs/default/policy.json --k 4'), async (t) => {
    const r = await cli(words(t.name));
    const held = readdirSync(join(data, 'runs', 'default', 'tasks', 'held-out')).length;
    // Training evaluates 2 held-out tasks (--eval-tasks 2); its folder keeps every task validated beside them.
    assert.ok(held >= 2);
    assert.match(
      r.err,
      new RegExp(`eval: the 2 held-out tasks run "default" evaluates in training${held > 2 ? ` \\(.* holds ${held}: ${held - 2} more` : ''}`),
    );
    assert.match(r.out, /embedded:policy\.json on 2 task\(s\) from run "default"'s held-out tasks/);
    const evals = join(data, 'runs', 'default', 'evals');
    assert.match(r.out, new RegExp(`report written to ${join(evals, 'embedded_policy.json-seed0.json')}`));
    const report = JSON.parse(readFileSync(join(evals, 'embedded_policy.json-seed0.json'), 'utf8')) as { overall: { tasks: number }; k: number };
    assert.equal(report.overall.tasks, 2);
    assert.equal(report.k, 4);
    assert.equal(readdirSync(join(evals, 'embedded_policy.json-seed0')).length, 2, 'a trajectory folder per task');
    assert.deepEqual(readdirSync(root), ['.frognano'], 'nothing written into the checkout');
  });

  it(at('frognano traj export --format atif|mini|openai'), async (t) => {
    const shown = words(t.name);
    for (const format of ['atif', 'mini', 'openai']) {
      const r = await cli(shown.map((w) => (w === 'atif|mini|openai' ? format : w)));
      const out = join(data, 'runs', 'default', 'export', format === 'openai' ? 'openai.jsonl' : format);
      assert.match(r.out, new RegExp(`^exported [1-9]\\d* trajectories as ${format} to ${out}$`));
      assert.ok(existsSync(out));
    }
  });

  it(at('frognano serve'), async (t) => {
    // A server runs until stopped: in a process of its own, the data directory named (it starts in the repository).
    const serve = spawnCli([...words(t.name), '--port', '0', '--data-dir', data]);
    const [, url] = await serve.waitFor('stderr', /dashboard: (http:\S+)/, 60_000);
    const runs = (await (await fetch(new URL('api/runs', url))).json()) as { name: string; attempts: number }[];
    assert.ok(
      runs.some((r) => r.name === 'default' && r.attempts > 0),
      JSON.stringify(runs),
    );
    serve.child.kill('SIGINT');
    assert.equal((await serve.exited(30_000)).code, 0);
  });

  it(at('frognano gc [--run R] [--keep-runs N] [--keep-mb M]'), async (t) => {
    const r = await cli(
      words(t.name, { '[--run': [], 'R]': [], '[--keep-runs': '--keep-runs', 'N]': '1', '[--keep-mb': '--keep-mb', 'M]': '1024' }).concat('--dry-run'),
    );
    assert.match(r.out, /^default\s/m);
  });

  it(at('frognano solve --repo PATH --issue TEXT --model M'), async (t) => {
    const repo = userRepo();
    const script = join(tempDir(), 'fix.json');
    writeFileSync(
      script,
      JSON.stringify([{ toolCalls: [{ name: 'Write', arguments: { file_path: 'src/math.js', content: JS_SOURCE } }] }, { content: 'Fixed add.' }]),
    );
    const r = await cli(words(t.name, { PATH: repo, TEXT: 'add(2, 3) returns -1 instead of 5.', M: `scripted:${script}` }));
    assert.match(r.out, /verdict: the change fixes tests and breaks none/);
    assert.equal(readFileSync(join(repo, 'src/math.js'), 'utf8'), JS_BROKEN, 'unchanged without --apply');
  });

  it(at('npx frognano solve --repo ~/src/mylib --issue issue.md --model qwen3-4b --base-url http://127.0.0.1:8000/v1 [--apply]'), async (t) => {
    const repo = userRepo();
    writeFileSync(join(root, 'issue.md'), 'add(2, 3) returns -1 instead of 5.\n');
    const server = await startScriptedModel((_req, n) =>
      n % 2 === 1 ? { toolCalls: [{ name: 'Write', arguments: { file_path: 'src/math.js', content: JS_SOURCE } }] } : { content: 'Fixed add.' },
    );
    try {
      const replace = { '~/src/mylib': repo, 'http://127.0.0.1:8000/v1': server.url };
      const plain = await cli(words(t.name, { ...replace, '[--apply]': [] }));
      assert.match(plain.out, /is unchanged\. To apply/);
      const applied = await cli(words(t.name, { ...replace, '[--apply]': '--apply' }));
      assert.match(applied.out, new RegExp(`applied to ${repo}`));
      assert.equal(readFileSync(join(repo, 'src/math.js'), 'utf8'), JS_SOURCE);
      assert.ok(server.requests.every((r) => r.body.model === 'qwen3-4b'));
    } finally {
      await server.close();
    }
  });

  it(at('frognano worker --queue redis://HOST:PORT'), { skip: redisMissing() }, async (t) => {
    const redis = await startRedis();
    try {
      const worker = spawnCli([...words(t.name, { 'redis://HOST:PORT': redis.url }), '--name', 'tour-w', '--data-dir', tempDir('fn-tour-worker-')]);
      await worker.waitFor('stderr', /^environments: /m, 60_000);
      const status = await cli(['queue', 'status', '--queue', redis.url]);
      assert.match(status.out, /^workers: 1 alive/m);
      worker.child.kill('SIGTERM');
      await worker.exited(30_000);
    } finally {
      await redis.stop();
    }
  });

  it(at('frognano queue status --queue URL'), { skip: redisMissing() }, async (t) => {
    const redis = await startRedis();
    try {
      const r = await cli(words(t.name, { URL: redis.url }));
      assert.match(r.out, /^jobs: 0 waiting, 0 running/m);
      assert.match(r.out, /workers: none alive/);
    } finally {
      await redis.stop();
    }
  });

  /** A user's repository: the add bug, a node:test suite, under git. */
  function userRepo(): string {
    const dir = tempDir('fn-tour-repo-');
    const files = {
      'package.json': '{"type":"module","private":true}\n',
      'src/math.js': JS_BROKEN,
      'tests/math.test.js': nodeTests({ 'add sums': "const { add } = await import('../src/math.js'); assert.equal(add(2, 3), 5);" }),
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    return dir;
  }
});
