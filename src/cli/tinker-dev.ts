// `frognano tinker-dev`: a Tinker-compatible server for tests and laptops,
// backed by a tiny token model in TypeScript. It proves that the client, the
// datums, masks, logprobs and advantages are right; it is not a GPU engine.
import { join } from 'node:path';
import { startTinkerDevServer } from '../tinker-dev/server.js';
import { TinyModel } from '../tinker-dev/tiny-model.js';
import { loadModelFolder } from '../tokens/tokenizer.js';
import { writeTinyModelFolder } from '../tokens/tiny-folder.js';
import { dataDir } from '../util/paths.js';
import { intFlag, stringFlag } from './flags.js';
import type { CliContext } from './context.js';
import { untilStopSignal } from '../util/signals.js';

export const TINKER_DEV_HELP = `Usage: frognano tinker-dev [options]

Serve the Tinker HTTP API on loopback, backed by a tiny next-token model
written in TypeScript (hashed n-gram features, real loss and gradients, real
AdamW, real sampling). It checks every request as SkyRL's server does
(futures, seq_id de-duplication, session expiry). It is not a language model
and not a GPU engine: an untrained tiny model writes noise. Use it to run
\`frognano train --learner tinker\` end to end on a laptop.

  --tokenizer DIR      model folder whose vocabulary the tiny model speaks (default: a
                       byte-level tokenizer folder written to <data-dir>/tinker-dev/tokenizer)
  --base-model NAME    the base model's name (default tiny-dev)
  --port N             port (default 8000; 0 = any free port)
  --host H             address to bind (default 127.0.0.1)
  --checkpoints DIR    where save_weights writes (default <data-dir>/tinker-dev/checkpoints)
  --session-timeout S  seconds without a heartbeat before a session's models are unloaded
                       (default 300, as SkyRL)
  --seed S             the tiny model's seed (default 0)`;

export async function tinkerDevCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  const home = join(dataDir(stringFlag(f, 'data-dir')), 'tinker-dev');
  const tokenizerDir = stringFlag(f, 'tokenizer') ?? writeTinyModelFolder(join(home, 'tokenizer'));
  const { tokenizer } = loadModelFolder(tokenizerDir);
  const baseModel = stringFlag(f, 'base-model') ?? 'tiny-dev';
  const host = stringFlag(f, 'host') ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host))
    ctx.err(`warning: binding ${host}: the dev server checks no API key; anyone who can reach it can use it`);
  const server = await startTinkerDevServer({
    port: intFlag(f.port, '--port', 8000),
    host,
    baseModel,
    makeModel: (seed) => new TinyModel({ vocabSize: tokenizer.vocabSize, specialIds: [...tokenizer.addedIds], seed }),
    baseSeed: intFlag(f.seed, '--seed', 0),
    sessionTimeoutSec: intFlag(f['session-timeout'], '--session-timeout', 300, 1),
    checkpointDir: stringFlag(f, 'checkpoints') ?? join(home, 'checkpoints'),
    log: ctx.err,
  });
  // Listen for the stop signals before saying where it serves: whoever reads that line may stop it at once.
  const stopped = untilStopSignal();
  ctx.out(`tinker-dev: serving base model "${baseModel}" (vocabulary of ${tokenizer.vocabSize} from ${tokenizerDir}) at ${server.url}`);
  ctx.out(`train against it: frognano train --learner tinker --model ${baseModel} --tokenizer ${tokenizerDir} --tinker-url ${server.url}`);
  await stopped;
  await server.close();
  return 0;
}
