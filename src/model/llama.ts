// An embedded GGUF model through node-llama-cpp (llama.cpp in process, CPU
// or GPU). The chat is formatted with the model's own template (the chat
// wrapper node-llama-cpp resolves from the GGUF's tokenizer.chat_template),
// then sampled token by token so the turn keeps its exact token ids and each
// token's log-probability. It has no native tool calling: the harness uses
// its text protocol with it.
import { basename } from 'node:path';
import { errorMessage, UserError } from '../util/errors.js';
import type { ChatHistoryItem, ChatWrapper, Llama, LlamaContext, LlamaContextSequence, LlamaModel, LlamaText, NodeLlamaCpp, Token } from './llama-api.js';
import { checkGgufFile, loadNodeLlamaCpp } from './llama-runtime.js';
import type { ChatMessage, Model, ModelTurn, TurnRequest } from './types.js';

export interface GgufModelOptions {
  modelPath: string;
  /** Largest context to allocate, in tokens; default the model's training context, at most 8192. */
  contextSize?: number;
  /** 'auto' (default) uses a GPU when a prebuilt binary for it works; false forces the CPU. */
  gpu?: 'auto' | false | 'cuda' | 'vulkan' | 'metal';
  threads?: number;
  /** Shown in trajectories; default `gguf:<file name>`. */
  name?: string;
  /** llama.cpp's own log level; default 'warn'. */
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
}

type StopTriggers = { tokens: Set<Token>; texts: string[] };

function toHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m): ChatHistoryItem => {
    const text = m.content ?? '';
    if (m.role === 'system') return { type: 'system', text };
    if (m.role === 'assistant') return { type: 'model', response: [text] };
    return { type: 'user', text }; // tool results reach a text-protocol model as user turns
  });
  history.push({ type: 'model', response: [] }); // the turn to generate
  return history;
}

/**
 * Splits a leading reasoning block (`<think>...</think>`, the opening tag
 * possibly written by the template) from the answer; other text is all content.
 */
export function splitReasoning(text: string): { content: string; reasoning?: string } {
  const end = text.indexOf('</think>');
  if (end < 0) return { content: text };
  const head = text.slice(0, end);
  const open = head.indexOf('<think>');
  if (open > 0 && head.slice(0, open).trim()) return { content: text };
  const reasoning = head.slice(open >= 0 ? open + '<think>'.length : 0).trim();
  return { content: text.slice(end + '</think>'.length).replace(/^\s+/, ''), ...(reasoning ? { reasoning } : {}) };
}

export class GgufModel implements Model {
  readonly supportsTools = false;
  readonly name: string;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly wrapper: ChatWrapper;

  private constructor(
    nlc: NodeLlamaCpp,
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly sequence: LlamaContextSequence,
    opts: GgufModelOptions,
  ) {
    this.name = opts.name ?? `gguf:${basename(opts.modelPath)}`;
    this.wrapper = nlc.resolveChatWrapper(model);
  }

  /** Loads a GGUF file; UserError when the file is missing, not GGUF, or llama.cpp cannot load it. */
  static async load(opts: GgufModelOptions): Promise<GgufModel> {
    checkGgufFile(opts.modelPath);
    const nlc = await loadNodeLlamaCpp();
    let llama: Llama;
    try {
      // build 'never': use the prebuilt binaries only, never download and compile llama.cpp.
      llama = await nlc.getLlama({ build: 'never', gpu: opts.gpu ?? 'auto', progressLogs: false, logLevel: nlc.LlamaLogLevel[opts.logLevel ?? 'warn'] });
    } catch (err) {
      throw new UserError(
        `node-llama-cpp has no working llama.cpp binary here: ${errorMessage(err)}`,
        'pass --model-path only on a platform node-llama-cpp ships prebuilt binaries for',
      );
    }
    try {
      const model = await llama.loadModel({ modelPath: opts.modelPath });
      const max = Math.min(opts.contextSize ?? 8192, model.trainContextSize);
      const context = await model.createContext({ contextSize: { max }, sequences: 1, ...(opts.threads ? { threads: opts.threads } : {}) });
      return new GgufModel(nlc, llama, model, context, context.getSequence(), opts);
    } catch (err) {
      await llama.dispose();
      throw new UserError(`could not load ${opts.modelPath}: ${errorMessage(err)}`);
    }
  }

  /** The context window in tokens. */
  get contextSize(): number {
    return this.context.contextSize;
  }

  turn(req: TurnRequest): Promise<ModelTurn> {
    // One sequence: turns run one after another.
    const run = this.queue.then(() => this.generate(req));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Triggers of one token stop on that token; longer ones on their text. */
  private stopTriggers(triggers: readonly LlamaText[]): StopTriggers {
    const out: StopTriggers = { tokens: new Set(), texts: [] };
    for (const t of triggers) {
      const ids = t.tokenize(this.model.tokenizer);
      if (ids.length === 1) out.tokens.add(ids[0]!);
      else if (t.toString()) out.texts.push(t.toString());
    }
    return out;
  }

  /** Drops what the sequence holds past the prompt's common prefix; returns the first index to evaluate. */
  private async align(prompt: Token[]): Promise<number> {
    const held = this.sequence.contextTokens;
    let common = 0;
    while (common < held.length && common < prompt.length && held[common] === prompt[common]) common++;
    if (common === prompt.length) common--; // the last prompt token must be evaluated to get logits
    if (common < this.sequence.nextTokenIndex) await this.sequence.eraseContextTokenRanges([{ start: common, end: this.sequence.nextTokenIndex }]);
    return common;
  }

  private async generate(req: TurnRequest): Promise<ModelTurn> {
    const state = this.wrapper.generateContextState({ chatHistory: toHistory(req.messages) });
    const prompt = state.contextText.tokenize(this.model.tokenizer);
    // node-llama-cpp's wrappers write a BOS even for models whose GGUF says not to add one.
    if (prompt[0] === this.model.tokens.bos && !this.model.tokens.shouldPrependBosToken) prompt.shift();
    const room = this.context.contextSize - prompt.length;
    if (room <= 0) throw new Error(`${this.name}: the prompt has ${prompt.length} tokens; the context holds ${this.context.contextSize}`);
    const budget = Math.min(req.maxTokens ?? room, room);
    const stop = this.stopTriggers(state.stopGenerationTriggers);
    const start = await this.align(prompt);

    const ids: Token[] = [];
    const logprobs: number[] = [];
    let contentEnd = -1; // tokens of the content; the rest is the stop token or text
    let finishReason = 'length';
    const options = {
      temperature: req.temperature ?? 0,
      // Sample from the model's whole distribution, so logprobs are the policy's own.
      topK: 0,
      topP: 1,
      minP: 0,
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
      yieldEogToken: true,
    };
    for await (const out of this.sequence.evaluateWithMetadata(prompt.slice(start), { confidence: true }, options)) {
      if (req.signal?.aborted) throw new Error(`${this.name}: turn aborted`);
      ids.push(out.token);
      logprobs.push(Math.log(out.confidence));
      if (this.model.isEogToken(out.token) || stop.tokens.has(out.token)) {
        contentEnd = ids.length - 1;
        finishReason = 'stop';
        break;
      }
      if (stop.texts.length && stop.texts.some((t) => this.model.detokenize(ids.slice(-t.length - 2)).includes(t))) {
        finishReason = 'stop';
        break;
      }
      if (ids.length >= budget) break;
    }
    let text = this.model.detokenize(contentEnd >= 0 ? ids.slice(0, contentEnd) : ids);
    for (const t of stop.texts) if (text.includes(t)) text = text.slice(0, text.indexOf(t));
    const { content, reasoning } = splitReasoning(text);
    return {
      message: { role: 'assistant', content, ...(reasoning ? { reasoning_content: reasoning } : {}) },
      finishReason,
      usage: { promptTokens: prompt.length, completionTokens: ids.length },
      tokens: { promptIds: [...prompt], ids, logprobs },
    };
  }

  async close(): Promise<void> {
    await this.queue;
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }
}

/** Loads the GGUF model at `modelPath` (see GgufModel.load). */
export function loadGgufModel(opts: GgufModelOptions): Promise<GgufModel> {
  return GgufModel.load(opts);
}
