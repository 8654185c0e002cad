// A language model acting through the agent harness: each turn renders the
// conversation to tokens (TokenTranscript), samples from the sampler pinned
// to the policy's weights, and parses the tokens back into an assistant
// message. The turn carries its tokens, logprobs and loss mask for the
// learner. A sampler that fails for the infrastructure throws an InfraError,
// which makes the rollout an infrastructure failure (never trained on).
import type { Model, ModelTurn, TurnRequest } from '../model/types.js';
import type { TokenTurn } from '../rl/contract.js';
import { checkSample } from '../sampler/check.js';
import type { Sampler } from '../sampler/types.js';
import type { ChatCodec } from '../tokens/codec.js';
import { TokenTranscript } from '../tokens/transcript.js';
import { errorMessage, InfraError } from '../util/errors.js';

export interface LmActorOptions {
  codec: ChatCodec;
  sampler: Sampler;
  /** Sampled tokens per turn at most. */
  maxTokens: number;
  /** Prompt and sampled tokens of an episode at most. */
  contextTokens: number;
  temperature: number;
  seed: number;
  name: string;
}

export class LmActor implements Model<TokenTurn> {
  readonly supportsTools = true;
  readonly name: string;
  private readonly transcript: TokenTranscript;
  private turns = 0;

  constructor(private readonly opts: LmActorOptions) {
    this.name = opts.name;
    this.transcript = new TokenTranscript(opts.codec);
  }

  async turn(req: TurnRequest): Promise<ModelTurn<TokenTurn>> {
    const { codec, sampler } = this.opts;
    const tools = req.tools ?? [];
    const prompt = this.transcript.prompt(req.messages, tools);
    const room = this.opts.contextTokens - prompt.length;
    // A full context ends the episode as a truncation (the harness's turn-token-limit), graded on what was done; nothing is sampled or trained.
    if (room <= 0) return { message: { role: 'assistant', content: '' }, finishReason: 'length', usage: { promptTokens: prompt.length, completionTokens: 0 } };
    const maxTokens = Math.min(this.opts.maxTokens, req.maxTokens ?? Infinity, room);
    let sample;
    try {
      sample = await sampler.sample({
        prompt,
        maxTokens,
        temperature: this.opts.temperature,
        stop: [codec.format.endOfTurnId],
        // Below 2^31: SkyRL draws its own seeds there, and its JAX sampler holds them as int32.
        seed: (this.opts.seed * 1009 + this.turns) % 2 ** 31,
        ...(req.signal ? { signal: req.signal } : {}),
      });
    } catch (err) {
      if (err instanceof InfraError || req.signal?.aborted) throw err;
      throw new InfraError(`sampler ${sampler.weights}: ${errorMessage(err)}`, { cause: err });
    }
    // Samplers check their samples; checked again here so a custom or wrapped sampler cannot slip zero-filled logprobs into training.
    const turn = this.transcript.append(checkSample(sample));
    const message = codec.parse(turn.sampledTokens, tools, this.turns++);
    return {
      message,
      finishReason: sample.stopReason,
      usage: { promptTokens: prompt.length, completionTokens: sample.tokens.length },
      tokens: { promptIds: turn.promptTokens, ids: turn.sampledTokens, logprobs: turn.logprobs },
      learner: { ...turn, weights: sampler.weights },
    };
  }
}
