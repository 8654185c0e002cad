// Samplers: where a language model's tokens come from. Token ids in, token
// ids and their logprobs out, pinned to one set of weights. Implementations:
// Tinker `asample` (tinker.ts) and an OpenAI-compatible vLLM server's
// completions endpoint (vllm.ts).

export interface SampleRequest {
  prompt: number[];
  maxTokens: number;
  temperature: number;
  /** Token ids that end the turn. */
  stop: number[];
  seed?: number;
  signal?: AbortSignal;
}

export interface Sample {
  tokens: number[];
  /** One per sampled token, checked (see check.ts). */
  logprobs: number[];
  stopReason: 'stop' | 'length';
}

export interface Sampler {
  /** The weights it samples from (a sampler checkpoint path or a model name): tags every rollout. */
  readonly weights: string;
  sample(req: SampleRequest): Promise<Sample>;
}
