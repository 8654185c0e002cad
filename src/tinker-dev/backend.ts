// What the dev server's HTTP layer needs from a model: the math behind
// forward_backward, optim_step and asample. server.ts speaks the protocol;
// tiny-model.ts is the one implementation.
import type { AdamParams, Datum, ForwardBackwardOutput, LossFn, LossFnConfig, SampledSequence } from '../tinker/types.js';

export interface DevSampleParams {
  maxTokens: number;
  temperature: number;
  topK: number;
  topP: number;
  seed: number;
  /** Token ids that end a sequence; the stop token is included in the returned tokens. */
  stop: number[];
}

export interface DevModel {
  readonly vocabSize: number;
  /** Loss, per-token logprobs and (when `backward`) gradients accumulated until the next optimStep. Throws on a datum it cannot take. */
  forwardBackward(data: Datum[], lossFn: LossFn, config: LossFnConfig | undefined, backward: boolean): ForwardBackwardOutput;
  /** One Adam step on the accumulated gradients, which it then clears. */
  optimStep(adam: AdamParams): Record<string, number>;
  sample(prompt: number[], n: number, params: DevSampleParams): SampledSequence[];
  /** Weights and optimizer state as JSON data, and back. */
  save(withOptimizer: boolean): unknown;
  load(state: unknown, withOptimizer: boolean): void;
  /** A frozen copy for a sampling session (weights saved for the sampler). */
  clone(): DevModel;
}
