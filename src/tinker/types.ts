// The data of the Tinker HTTP API as SkyRL's server defines it
// (skyrl/tinker/types.py, skyrl/tinker/api.py in NovaSky-AI/SkyRL; summary in
// shared/reference/tinker-and-trainers.md). Plain types shared by the client,
// the datum builder and the dev server; wire.ts holds their runtime schemas.

/** A tensor as JSON: flat data, optional dtype and shape (SkyRL ignores the last two). */
export interface TensorData {
  data: number[];
  dtype?: 'int64' | 'float32';
  shape?: number[];
}

export interface EncodedTextChunk {
  type: 'encoded_text';
  tokens: number[];
}

export interface ModelInput {
  chunks: EncodedTextChunk[];
}

/** Keys a loss reads from a datum; input position i predicts target_tokens[i] (the token at i+1). */
export type LossInputKey = 'target_tokens' | 'weights' | 'logprobs' | 'advantages' | 'values' | 'returns';

export interface Datum {
  model_input: ModelInput;
  loss_fn_inputs: Partial<Record<LossInputKey, TensorData>> & { target_tokens: TensorData };
}

export const LOSS_FNS = ['cross_entropy', 'importance_sampling', 'ppo', 'gspo', 'cispo', 'ppo_critic', 'dppo'] as const;
export type LossFn = (typeof LOSS_FNS)[number];

/** Loss settings by name: ppo clip_low_threshold/clip_high_threshold, dppo delta_low/delta_high, ... */
export type LossFnConfig = Record<string, number>;

export interface AdamParams {
  learning_rate: number;
  beta1: number;
  beta2: number;
  eps: number;
  weight_decay: number;
}

export interface LossFnOutput {
  logprobs: TensorData;
  elementwise_loss: TensorData;
}

export interface ForwardBackwardOutput {
  loss_fn_output_type: string;
  loss_fn_outputs: LossFnOutput[];
  metrics: Record<string, number>;
}

export interface SamplingParams {
  max_tokens: number;
  temperature?: number;
  top_k?: number;
  top_p?: number;
  seed?: number;
  stop?: number[] | string[];
}

export type StopReason = 'stop' | 'length';

export interface SampledSequence {
  tokens: number[];
  /** null entries: NaN on the server (pydantic writes NaN as null). */
  logprobs: (number | null)[] | null;
  stop_reason: StopReason;
}

export interface SampleOutput {
  sequences: SampledSequence[];
  /** One per prompt token (null for the first) when the request asked for prompt_logprobs. */
  prompt_logprobs?: (number | null)[] | null;
  /** Per prompt token, up to k [token_id, logprob] pairs, when asked for topk_prompt_logprobs > 0. */
  topk_prompt_logprobs?: ([number, number][] | null)[] | null;
}
