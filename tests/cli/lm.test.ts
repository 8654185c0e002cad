// The language-model commands through the command line: `frognano tinker-dev`
// as a process of its own, `frognano train --learner tinker`'s usage errors,
// and a run killed with SIGKILL that the same command line resumes from its
// last checkpoint on the Tinker server.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { TinkerLearnerState } from '../../src/lm/learner.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { loadState } from '../../src/train/state.js';
import { Store } from '../../src/store/store.js';
import { RunQueries } from '../../src/serve/runs.js';
import { TaskQueries } from '../../src/serve/tasks.js';
import { addChecked, runCli } from '../helpers/cli.js';
import { killLeftovers, spawnCli } from '../helpers/cli-lm.js';
import { toyEnv, toyTrainArgs, warmDevServer } from '../helpers/lm-toy.js';
import { tempDir } from '../helpers/workspace.js';

after(killLeftovers);

describe('frognano tinker-dev', () => {
  it('serves on a free port, says how to train against it, answers healthz as a dev server and stops on SIGTERM', async () => {
    const data = tempDir('fn-cli-lm-');
    const dev = spawnCli(['tinker-dev', '--port', '0', '--data-dir', data]);
    const [, url] = await dev.waitFor(
      'stdout',
      /^tinker-dev: serving base model "tiny-dev" \(vocabulary of \d+ from \S+\) at (http:\/\/127\.0\.0\.1:\d+)$/m,
      30_000,
    );
    const [, tokenizer, trainUrl] = await dev.waitFor(
      'stdout',
      /^train against it: frognano train --learner tinker --model tiny-dev --tokenizer (\S+) --tinker-url (\S+)$/m,
      5_000,
    );
    assert.equal(trainUrl, url, 'the train command line points at the served URL');
    assert.equal(tokenizer, join(data, 'tinker-dev', 'tokenizer'), 'the default tokenizer folder lies in the data directory');
    assert.ok(existsSync(join(tokenizer!, 'tokenizer.json')), 'the tokenizer folder was written');
    const health = await fetch(`${url}/api/v1/healthz`);
    assert.equal(health.status, 200);
    const body = (await health.json()) as { status?: unknown; dev_server?: unknown };
    assert.equal(body.status, 'ok');
    assert.match(String(body.dev_server), /dev server/);
    assert.doesNotMatch(dev.stderr(), /warning/, 'no warning on loopback');
    assert.ok(dev.child.kill('SIGTERM'));
    assert.deepEqual(await dev.exited(15_000), { code: 0, signal: null });
    await assert.rejects(fetch(`${url}/api/v1/healthz`), 'the port is closed once it stopped');
  });

  it('warns when it binds beyond loopback', async () => {
    const dev = spawnCli(['tinker-dev', '--port', '0', '--host', '0.0.0.0', '--data-dir', tempDir('fn-cli-lm-')]);
    await dev.waitFor('stderr', /^warning: binding 0\.0\.0\.0: the dev server checks no API key/m, 30_000);
    await dev.waitFor('stdout', /at http:\/\/0\.0\.0\.0:\d+$/m, 5_000);
    dev.child.kill('SIGTERM');
    assert.deepEqual(await dev.exited(15_000), { code: 0, signal: null });
  });
});

describe('frognano train --learner tinker: usage', () => {
  const data = tempDir('fn-cli-lm-');
  const tokenizer = writeTinyModelFolder(join(data, 'tokenizer'));
  const base = ['train', '--learner', 'tinker', '--data-dir', data];
  const full = [...base, '--model', 'tiny-dev', '--tokenizer', tokenizer];

  const cases: [string, string[], RegExp][] = [
    ['no --model', base, /frognano train: --learner tinker needs --model\n {2}fix: .*--model/],
    ['no --tokenizer, and --model is not a folder', [...base, '--model', 'tiny-dev'], /frognano train: --learner tinker needs --tokenizer DIR/],
    ['no --tinker-url', full, /frognano train: --learner tinker needs --tinker-url\n {2}fix: .*frognano tinker-dev/],
    ['an unknown --loss', [...full, '--loss', 'hinge'], /frognano train: unknown --loss "hinge"\n {2}fix: use .*importance_sampling/],
    ['an unknown --sampler', [...full, '--sampler', 'llama'], /frognano train: unknown --sampler "llama"\n {2}fix: use tinker or vllm/],
    [
      '--sampler vllm without --vllm-url',
      [...full, '--tinker-url', 'http://127.0.0.1:9', '--sampler', 'vllm'],
      /frognano train: --sampler vllm needs --vllm-url/,
    ],
    ['--thinking maybe', [...full, '--thinking', 'maybe'], /frognano train: --thinking takes on or off, got "maybe"/],
  ];
  for (const [what, args, message] of cases) {
    it(`exits 2 naming the flag on ${what}`, async () => {
      const r = await runCli(args);
      assert.equal(r.code, 2, r.out + r.err);
      assert.match(r.err, message);
      assert.match(r.err, /\nUsage: frognano train \[options\]\n\(frognano train --help lists every option\)$/);
      assert.equal(r.out, '');
    });
  }

  it('takes the tokenizer from --model when that is a folder', async () => {
    const r = await runCli([...base, '--model', tokenizer]);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.err, /--tokenizer/);
    assert.match(r.err, /needs --tinker-url/, 'it got past the tokenizer to the next missing flag');
  });

  it('lists the language-model options in train --help', async () => {
    const r = await runCli(['train', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.out, /--learner L +embedded .* or tinker/);
    assert.match(r.out, /^Language-model learner \(--learner tinker/m);
    for (const flag of [
      '--model NAME',
      '--tokenizer DIR',
      '--tinker-url URL',
      '--tinker-api-key-env NAME',
      '--lora-rank R',
      '--loss L',
      '--max-tokens N',
      '--context N',
      '--temperature T',
      '--thinking on|off',
      '--sampler S',
      '--max-staleness N',
      '--init-weights PATH',
    ])
      assert.ok(r.out.includes(`  ${flag}`), `train --help lists ${flag}`);
  });
});

describe('frognano train --learner tinker: a killed run resumes', () => {
  it('resumes after the last finished step from the checkpoint on the server, losing and repeating no step', { timeout: 300_000 }, async (t) => {
    const root = tempDir('fn-cli-lm-run-');
    const data = join(root, 'data');
    // The toy environment, registered through the CLI from a folder carrying its spec.
    const env = toyEnv('toy-ops');
    writeFileSync(join(env.baseDir, 'environment.json'), JSON.stringify(env.spec, null, 2));
    await addChecked(env.baseDir, data);

    const tokenizer = writeTinyModelFolder(join(root, 'tokenizer'));
    const codec = ChatCodec.load(tokenizer);
    const { server, warm } = await warmDevServer(codec, join(root, 'checkpoints'));
    t.after(() => server.close());
    assert.match(warm, /^tinker:\/\//);

    // The same command line, twice.
    const args = [...toyTrainArgs({ tokenizer, url: server.url, warm, steps: 6, data }), '--run', 'r1'];
    const runDir = join(data, 'runs', 'r1');
    const metricSteps = () =>
      readFileSync(join(runDir, 'metrics.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { step: number }).step);

    const first = spawnCli(args);
    await first.waitFor('stderr', /^step 2: /m, 150_000);
    assert.ok(first.child.kill('SIGKILL'));
    assert.deepEqual(await first.exited(10_000), { code: null, signal: 'SIGKILL' });
    assert.ok(`\n${first.stderr()}`.includes(`\nloaded ${warm}\n`), `the first run started from the warm-up weights:\n${first.stderr()}`);
    assert.doesNotMatch(first.stderr(), /resuming/);
    const killed = loadState(runDir);
    assert.ok(killed, 'the killed run left its state');
    const dash = () => new Store(data);
    const seen = dash();
    assert.equal(new RunQueries(seen, data).list().find((r) => r.name === 'r1')?.status, 'interrupted', 'the dashboard tells a killed run');
    seen.close();
    t.diagnostic(`killed after step ${killed.step}`);
    assert.ok(killed.step >= 2, `saved after step ${killed.step}`);
    assert.ok(killed.step < 6, 'killed before the end');
    assert.equal(killed.learner.kind, 'tinker');
    const saved = killed.learner.state as TinkerLearnerState;
    assert.match(saved.checkpoint ?? '', new RegExp(`^tinker://.*/weights/r1-v${saved.version}$`));
    assert.deepEqual(
      metricSteps(),
      Array.from({ length: killed.step }, (_, i) => i + 1),
    );

    const second = spawnCli(args);
    const ended = await second.exited(240_000);
    const stderr = second.stderr();
    assert.deepEqual(ended, { code: 0, signal: null }, stderr);
    const resumed = /^resuming run "r1" after step (\d+) \(\d+ rollouts done\)$/m.exec(stderr);
    assert.ok(resumed, `the rerun says it resumes:\n${stderr}`);
    assert.equal(Number(resumed[1]), killed.step);
    assert.ok(stderr.includes(`\nloaded ${saved.checkpoint} (weights and optimizer)\n`), `it loaded the last checkpoint, not the warm-up weights:\n${stderr}`);
    assert.doesNotMatch(stderr, new RegExp(`^step ${killed.step}: `, 'm'), 'no finished step runs again');
    assert.match(stderr, /^step 6: /m);
    assert.match(second.stdout(), /^trained 6 steps, /m);

    assert.deepEqual(metricSteps(), [1, 2, 3, 4, 5, 6], 'metrics.jsonl holds each step once');
    const final = loadState(runDir)!;
    assert.equal(final.step, 6);
    assert.equal(final.learner.kind, 'tinker');
    const state = final.learner.state as TinkerLearnerState;
    assert.ok(state.version >= saved.version, 'versions continue from the checkpoint');
    assert.match(state.checkpoint ?? '', new RegExp(`^tinker://.*/weights/r1-v${state.version}$`));

    // Every attempt was kept, with the language model's tokens per turn for the trajectory viewer.
    const store = dash();
    const runs = new RunQueries(store, data).list();
    assert.equal(runs.find((r) => r.name === 'r1')?.status, 'stopped');
    const kept = store.db.prepare<[], { id: number; tokens: number | null }>("SELECT id, tokens FROM attempts WHERE run = 'r1' AND kind = 'train'").all();
    assert.ok(kept.length >= 6 * 4, `${kept.length} training attempts over 6 steps`);
    assert.ok(kept.every((a) => a.tokens !== null && a.tokens > 0));
    const view = new TaskQueries(store, data).attempt(kept.at(-1)!.id)!;
    const turns = (view.artifact as { trajectory: { turns: { tokens?: { ids: number[]; promptIds?: number[] }; usage?: { promptTokens?: number } }[] } })
      .trajectory.turns;
    assert.ok(turns.length > 0 && turns.every((t) => (t.tokens?.ids.length ?? 0) > 0 && (t.usage?.promptTokens ?? 0) > 0 && t.tokens?.promptIds === undefined));
    store.close();
  });
});
