// Tinker's `asample` behind the Sampler interface: token ids in, token ids and
// logprobs out, pinned to the weights a save_weights_for_sampler produced (a
// sampling session, or a saved sampler checkpoint's path). Transport errors
// that outlast the client's retries are infrastructure failures.
import type { TinkerClient } from '../tinker/client.js';
import { TinkerApiError } from '../tinker/http.js';
import { errorMessage } from '../util/errors.js';
import { checkSample, SamplerFault } from './check.js';
import type { Sample, SampleRequest, Sampler } from './types.js';

export class TinkerSampler implements Sampler {
  readonly weights: string;

  constructor(
    private readonly client: TinkerClient,
    private readonly source: { samplingSessionId?: string; modelPath?: string; baseModel?: string },
  ) {
    const name = source.modelPath ?? (source.samplingSessionId ? `sampling-session:${source.samplingSessionId}` : source.baseModel);
    if (name === undefined) throw new Error('a Tinker sampler needs a sampling session, a sampler checkpoint path or a base model');
    this.weights = name;
  }

  async sample(req: SampleRequest): Promise<Sample> {
    let out;
    try {
      out = await this.client.asample({
        prompt: req.prompt,
        numSamples: 1,
        samplingParams: { max_tokens: req.maxTokens, temperature: req.temperature, stop: req.stop, ...(req.seed !== undefined ? { seed: req.seed } : {}) },
        ...this.source,
        ...(this.source.samplingSessionId ? { baseModel: undefined, modelPath: undefined } : {}),
      });
    } catch (err) {
      const shape = err instanceof TinkerApiError && err.kind === 'shape';
      throw new SamplerFault(shape ? 'bad-response' : 'unreachable', `tinker asample failed: ${errorMessage(err)}`);
    }
    const seq = out.sequences[0];
    if (!seq) throw new SamplerFault('bad-response', 'tinker asample returned no sequence');
    return checkSample({ tokens: seq.tokens, logprobs: seq.logprobs, stopReason: seq.stop_reason });
  }
}
