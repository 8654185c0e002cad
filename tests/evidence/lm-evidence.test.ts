// The evidence protocol run unchanged with the language-model learner: `frognano evidence run --learner tinker`
// against `frognano tinker-dev` (a real Tinker HTTP server with a tiny token model), one held-out environment, the
// frontier and static arms. Proves the wiring (every cell trains a LoRA through the Tinker API and is scored), not a
// GPU engine's speed.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { addChecked, runCli } from '../helpers/cli.js';
import { ChatCodec } from '../../src/tokens/codec.js';
import { writeTinyModelFolder } from '../../src/tokens/tiny-folder.js';
import { loadState } from '../../src/train/state.js';
import { toyEnv, warmDevServer } from '../helpers/lm-toy.js';
import { tempDir } from '../helpers/workspace.js';

describe('frognano evidence --learner tinker', () => {
  it('runs each cell of a protocol as a language-model training run through the Tinker API', { timeout: 600_000 }, async (t) => {
    const root = tempDir('fn-lm-evidence-');
    const data = join(root, 'data');
    for (const name of ['toy-ops', 'toy-held']) {
      const env = toyEnv(name);
      writeFileSync(join(env.baseDir, 'environment.json'), JSON.stringify(env.spec, null, 2));
      await addChecked(env.baseDir, data);
    }
    const tokenizer = writeTinyModelFolder(join(root, 'tokenizer'));
    const { server, warm } = await warmDevServer(ChatCodec.load(tokenizer), join(root, 'checkpoints'));
    t.after(() => server.close());
    const protocol = {
      name: 'lm-tiny',
      groups: [{ heldOut: 'toy-held', train: ['toy-ops'] }],
      seeds: [1],
      arms: [
        { name: 'frontier', curriculum: 'frontier', ablate: [] },
        { name: 'static', curriculum: 'static', ablate: [] },
      ],
      budget: 16,
      evalTasks: 1,
      evalAttempts: 1,
      evalEvery: 100,
      handwrittenAttempts: 0,
    };
    const file = join(root, 'lm.json');
    writeFileSync(file, JSON.stringify(protocol));
    const out = join(root, 'out');
    const r = await runCli([
      ...['--data-dir', data, 'evidence', 'run', '--protocol', file, '--out', out],
      ...['--learner', 'tinker', '--model', 'tiny-dev', '--tokenizer', tokenizer, '--tinker-url', server.url, '--init-weights', warm],
      ...['--lr', '0.1', '--max-tokens', '320', '--context', '8000'],
    ]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /all 2 runs done/);
    assert.match(r.out, /protocol lm-tiny: 2\/2 runs finished/);
    for (const arm of ['frontier', 'static']) {
      const dir = join(out, 'runs', `toy-held.${arm}.s1`);
      const state = loadState(dir)!;
      assert.equal(state.config.learner, 'tinker');
      assert.notEqual(state.learner.kind, 'embedded-policy');
      const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as { rollouts: number; final: { attempts: number } };
      assert.ok(result.rollouts > 0 && result.rollouts <= protocol.budget, String(result.rollouts));
      assert.ok(result.final.attempts > 0, 'the held-out task was attempted by the trained model');
    }
  });
});
