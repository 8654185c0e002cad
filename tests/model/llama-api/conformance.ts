// Compiled only where node-llama-cpp is installed (tests/model/llama-api.test.ts):
// the real module must fit the API surface src/model/llama-api.ts declares.
import type * as real from 'node-llama-cpp';
import type { ChatWrapper, LlamaContext, LlamaContextSequence, LlamaModel, NodeLlamaCpp } from '../../../src/model/llama-api.js';

declare const module: typeof real;
declare const model: real.LlamaModel;
declare const context: real.LlamaContext;
declare const sequence: real.LlamaContextSequence;
declare const wrapper: real.ChatWrapper;
export const fits = {
  module: module satisfies NodeLlamaCpp<real.LlamaLogLevel>,
  model: model satisfies LlamaModel,
  context: context satisfies LlamaContext,
  sequence: sequence satisfies LlamaContextSequence,
  wrapper: wrapper satisfies ChatWrapper,
};
