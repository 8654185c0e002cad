// `frognano train --learner tinker`: the language-model learner's flags, and
// the learner built from them (Tinker client, chat codec, sampler).
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { adamParams, LM_DEFAULTS, LM_LOSSES, LM_SAMPLERS, type LmConfig } from '../lm/config.js';
import { TinkerLearner } from '../lm/learner.js';
import { TinkerSampler } from '../sampler/tinker.js';
import { VllmSampler } from '../sampler/vllm.js';
import { TinkerClient } from '../tinker/client.js';
import { ChatCodec } from '../tokens/codec.js';
import { UserError } from '../util/errors.js';
import { isOneOf } from '../util/guards.js';
import { intFlag, numberFlag, stringFlag } from './flags.js';
import type { CliContext } from './context.js';

export const LM_HELP = `Language-model learner (--learner tinker; docs/language-models.md):
  --model NAME         the base model as the Tinker server names it (required)
  --tokenizer DIR      local folder with tokenizer.json and tokenizer_config.json
                       (default: --model, when it is a folder)
  --tinker-url URL     the Tinker server: SkyRL's, the hosted service, or frognano tinker-dev
  --tinker-api-key-env NAME  environment variable holding the API key (default TINKER_API_KEY)
  --lora-rank R        LoRA rank (default ${LM_DEFAULTS.loraRank})
  --loss L             ${LM_LOSSES.join(', ')} (default ${LM_DEFAULTS.loss}, the one SkyRL
                       validates; dppo needs SkyRL's fsdp or megatron backend)
  --lr X               here: Adam's learning rate (default ${LM_DEFAULTS.lr})
  --max-tokens N       sampled tokens per turn (default ${LM_DEFAULTS.maxTokens})
  --context N          prompt and sampled tokens per episode (default ${LM_DEFAULTS.contextTokens})
  --temperature T      sampling temperature (default ${LM_DEFAULTS.temperature}; evaluation is greedy)
  --thinking on|off    the template's enable_thinking (default: the template's own)
  --sampler S          tinker (asample, default) or vllm: the completions endpoint of the
                       engine's own vLLM servers, which each step's save_weights_for_sampler
                       syncs (--vllm-url, --vllm-model; any other vLLM samples stale weights)
  --max-staleness N    policy versions a rollout may lag and still train (default ${LM_DEFAULTS.maxStaleness})
  --init-weights PATH  a tinker:// checkpoint to start from (e.g. after supervised warm-up)`;

function isDir(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** The learner's settings from the flags; what is missing or unknown is a UserError naming the flag. */
export function lmConfig(f: CliContext['flags']): LmConfig {
  const baseModel = stringFlag(f, 'model');
  if (!baseModel) throw new UserError('--learner tinker needs --model', 'name the base model as the Tinker server knows it, e.g. --model Qwen/Qwen3-4B');
  const tokenizer = stringFlag(f, 'tokenizer') ?? (isDir(baseModel) ? baseModel : undefined);
  if (!tokenizer)
    throw new UserError('--learner tinker needs --tokenizer DIR', "give a local folder with the model's tokenizer.json and tokenizer_config.json");
  const loss = stringFlag(f, 'loss') ?? LM_DEFAULTS.loss;
  if (!isOneOf(LM_LOSSES, loss)) throw new UserError(`unknown --loss "${loss}"`, `use ${LM_LOSSES.join(', ')}`);
  const sampler = stringFlag(f, 'sampler') ?? LM_DEFAULTS.sampler;
  if (!isOneOf(LM_SAMPLERS, sampler)) throw new UserError(`unknown --sampler "${sampler}"`, `use ${LM_SAMPLERS.join(' or ')}`);
  const thinking = stringFlag(f, 'thinking');
  if (thinking !== undefined && thinking !== 'on' && thinking !== 'off') throw new UserError(`--thinking takes on or off, got "${thinking}"`);
  const initWeights = stringFlag(f, 'init-weights');
  return {
    baseModel,
    tokenizer,
    loraRank: intFlag(f['lora-rank'], '--lora-rank', LM_DEFAULTS.loraRank, 1),
    loss,
    lr: numberFlag(f.lr, '--lr', LM_DEFAULTS.lr),
    maxTokens: intFlag(f['max-tokens'], '--max-tokens', LM_DEFAULTS.maxTokens, 1),
    contextTokens: intFlag(f.context, '--context', LM_DEFAULTS.contextTokens, 2),
    temperature: numberFlag(f.temperature, '--temperature', LM_DEFAULTS.temperature),
    ...(thinking !== undefined ? { thinking: thinking === 'on' } : {}),
    sampler,
    maxStaleness: intFlag(f['max-staleness'], '--max-staleness', LM_DEFAULTS.maxStaleness),
    ...(initWeights !== undefined ? { initWeights } : {}),
  };
}

/** Where sampling finds the weights just saved; never the base model, whose rollouts would be trained as the policy's. */
function samplerSource(saved: { path: string | null; samplingSessionId?: string }): { samplingSessionId: string } | { modelPath: string } {
  if (saved.samplingSessionId) return { samplingSessionId: saved.samplingSessionId };
  if (saved.path) return { modelPath: saved.path };
  throw new Error('save_weights_for_sampler returned neither a sampling session nor a path');
}

/** The Tinker learner for a run; where the server is and its key are not settings of the run (they may change on resume). */
export function tinkerLearner(
  lm: LmConfig,
  f: CliContext['flags'],
  run: { name: string; seed: number; log: (line: string) => void; forWorkers?: boolean },
): TinkerLearner {
  const url = stringFlag(f, 'tinker-url');
  if (!url) throw new UserError('--learner tinker needs --tinker-url', 'start one with `frognano tinker-dev`, or point at a SkyRL Tinker server');
  const keyEnv = stringFlag(f, 'tinker-api-key-env') ?? 'TINKER_API_KEY';
  const apiKey = process.env[keyEnv];
  const client = new TinkerClient({ baseUrl: url, ...(apiKey ? { apiKey } : {}), log: run.log });
  const codec = ChatCodec.load(lm.tokenizer, lm.thinking !== undefined ? { thinking: lm.thinking } : {});
  const vllmUrl = stringFlag(f, 'vllm-url');
  const vllmModel = stringFlag(f, 'vllm-model');
  if (lm.sampler === 'vllm' && !vllmUrl) throw new UserError('--sampler vllm needs --vllm-url');
  // The name the engine's vLLM serves the trained weights under is the engine's (SkyRL's LoRA sync: skyrl-lora, unverified): never guessed.
  if (lm.sampler === 'vllm' && !vllmModel)
    throw new UserError('--sampler vllm needs --vllm-model', "the model name the engine's vLLM serves the trained weights under (SkyRL with LoRA: skyrl-lora)");
  return new TinkerLearner({
    client,
    baseModel: lm.baseModel,
    codec,
    loraRank: lm.loraRank,
    loss: lm.loss,
    adam: adamParams(lm.lr),
    maxTokens: lm.maxTokens,
    contextTokens: lm.contextTokens,
    temperature: lm.temperature,
    maxStaleness: lm.maxStaleness,
    runName: run.name,
    seed: run.seed,
    ...(lm.initWeights ? { initWeights: lm.initWeights } : {}),
    ...(run.forWorkers
      ? { workers: { tinkerUrl: url, apiKeyEnv: keyEnv, tokenizer: resolve(lm.tokenizer), ...(lm.thinking !== undefined ? { thinking: lm.thinking } : {}) } }
      : {}),
    samplerFor: (saved) =>
      lm.sampler === 'vllm' ? new VllmSampler({ baseUrl: vllmUrl!, model: vllmModel! }) : new TinkerSampler(client, samplerSource(saved)),
    log: run.log,
  });
}
