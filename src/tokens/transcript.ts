// An episode as one growing token sequence. Each turn's prompt is the tokens
// already held plus the new messages (tool results) rendered by the template
// and tokenized on their own; the model's sampled tokens go in exactly as
// sampled. Nothing held is ever re-tokenized, so the learner trains on the
// tokens the sampler saw and produced (shared/reference: re-tokenization drift).
import type { ChatMessage, ToolSpec } from '../model/types.js';
import type { ChatCodec } from './codec.js';

/** One turn's tokens: what the learner trains on (rl/contract.ts TokenTurn has the same shape). */
export interface TranscriptTurn {
  promptTokens: number[];
  sampledTokens: number[];
  logprobs: number[];
  lossMask: number[];
}

/** The index just past the n-th occurrence of `needle` in `hay` at or after `from`, or -1. */
function afterNth(hay: string, needle: string, from: number, n: number): number {
  let at = from;
  for (let i = 0; i < n; i++) {
    const j = hay.indexOf(needle, at);
    if (j < 0) return -1;
    at = j + needle.length;
  }
  return at;
}

export class TokenTranscript {
  private readonly tokens: number[] = [];
  /** Messages the held tokens cover, the last assistant turn included. */
  private covered = 0;
  /** End-of-turn markers in the last assistant turn's text (normally one: its own end). */
  private markers = 0;

  constructor(private readonly codec: ChatCodec) {}

  get length(): number {
    return this.tokens.length;
  }

  /** The prompt for the next turn, given the harness's whole message list (which must extend the one seen before). */
  prompt(messages: readonly ChatMessage[], tools: readonly ToolSpec[] | undefined): number[] {
    const { template, tokenizer, format } = this.codec;
    if (this.covered === 0) {
      this.tokens.push(...tokenizer.encode(template.render(messages, tools, true)));
    } else {
      const k = this.covered - 1;
      if (messages.length <= this.covered || messages[k]?.role !== 'assistant') {
        throw new Error(`token transcript out of step: expected new messages after the assistant turn at ${k}, got ${messages.length} messages`);
      }
      const before = template.render(messages.slice(0, k), tools, false);
      const all = template.render(messages, tools, true);
      if (!all.startsWith(before))
        throw new Error('the chat template renders earlier turns differently as the episode grows; token trajectories cannot be built with it');
      // The assistant turn's own rendering ends at its end-of-turn marker; what follows is new.
      const end = afterNth(all, format.endOfTurn, before.length, Math.max(1, this.markers));
      if (end < 0) throw new Error(`the rendered assistant turn has no ${format.endOfTurn}`);
      // A turn cut off by the token limit holds no marker of its own: the new part starts with the template's, closing the turn.
      this.tokens.push(...tokenizer.encode(all.slice(this.markers === 0 ? end - format.endOfTurn.length : end)));
    }
    this.covered = messages.length;
    return [...this.tokens];
  }

  /** Adds a sampled turn; a turn that stopped without its end-of-turn token gets it, untrained (it was not sampled). */
  append(sample: { tokens: readonly number[]; logprobs: readonly number[]; stopReason: 'stop' | 'length' }): TranscriptTurn {
    const { format, tokenizer } = this.codec;
    const promptTokens = [...this.tokens];
    const sampledTokens = [...sample.tokens];
    const logprobs = [...sample.logprobs];
    const lossMask = sampledTokens.map(() => 1);
    if (sample.stopReason === 'stop' && sampledTokens.at(-1) !== format.endOfTurnId) {
      sampledTokens.push(format.endOfTurnId);
      logprobs.push(0);
      lossMask.push(0);
    }
    this.markers = tokenizer.decode(sampledTokens).split(format.endOfTurn).length - 1;
    this.tokens.push(...sampledTokens);
    this.covered += 1;
    return { promptTokens, sampledTokens, logprobs, lossMask };
  }
}
