// Settings of a language-model learner and their defaults. Why each default:
// docs/language-models.md ("Settings").
import type { LossFn } from '../tinker/types.js';

export const LM_LOSSES = ['importance_sampling', 'ppo', 'dppo'] as const satisfies readonly LossFn[];
export type LmLoss = (typeof LM_LOSSES)[number];
export const LM_SAMPLERS = ['tinker', 'vllm'] as const;
export type LmSamplerKind = (typeof LM_SAMPLERS)[number];

export interface LmConfig {
  /** The base model as the server names it. */
  baseModel: string;
  /** Local folder with tokenizer.json and tokenizer_config.json (the model's own chat template). */
  tokenizer: string;
  loraRank: number;
  loss: LmLoss;
  lr: number;
  /** Sampled tokens per turn, and prompt plus sampled tokens per episode, at most. */
  maxTokens: number;
  contextTokens: number;
  temperature: number;
  /** enable_thinking for templates that read it; absent: the template's default. */
  thinking?: boolean;
  sampler: LmSamplerKind;
  /** Policy versions a rollout may lag behind the learner and still be trained on. */
  maxStaleness: number;
  /** Weights to start from (a `tinker://` checkpoint, e.g. after supervised warm-up). */
  initWeights?: string;
}

export const LM_DEFAULTS: Omit<LmConfig, 'baseModel' | 'tokenizer'> = {
  loraRank: 32,
  // SkyRL documents importance_sampling as the validated policy loss (shared/reference/tinker-and-trainers.md, risk 2).
  loss: 'importance_sampling',
  lr: 1e-4,
  maxTokens: 2048,
  contextTokens: 32_768,
  temperature: 1,
  sampler: 'tinker',
  maxStaleness: 1,
};

/** Adam settings sent with each optim_step. */
export function adamParams(lr: number): { learning_rate: number; beta1: number; beta2: number; eps: number; weight_decay: number } {
  return { learning_rate: lr, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0 };
}
