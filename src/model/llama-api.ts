// The part of node-llama-cpp 3.21.1's API the embedded model uses, declared
// here because the package is installed only on request: without it the
// project must still typecheck. Kept to what llama.ts calls.

/** A token id, branded as node-llama-cpp brands it. */
export type Token = number & { __token: never };

export type Tokenizer = object;

export interface LlamaText {
  tokenize(tokenizer: Tokenizer): Token[];
  toString(): string;
}

export type ChatHistoryItem = { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] };

export interface ChatWrapper {
  generateContextState(o: { chatHistory: ChatHistoryItem[] }): { contextText: LlamaText; stopGenerationTriggers: readonly LlamaText[] };
}

export interface SampleOptions {
  temperature: number;
  topK: number;
  topP: number;
  minP: number;
  seed?: number;
  yieldEogToken: boolean;
}

export interface LlamaContextSequence {
  readonly contextTokens: Token[];
  readonly nextTokenIndex: number;
  eraseContextTokenRanges(ranges: { start: number; end: number }[]): Promise<void>;
  evaluateWithMetadata(tokens: Token[], metadata: { confidence: true }, options: SampleOptions): AsyncIterable<{ token: Token; confidence: number }>;
}

export interface LlamaContext {
  readonly contextSize: number;
  getSequence(): LlamaContextSequence;
  dispose(): Promise<void>;
}

export interface LlamaModel {
  readonly tokenizer: Tokenizer;
  readonly tokens: { bos: Token | null; shouldPrependBosToken: boolean };
  readonly trainContextSize: number;
  isEogToken(token: Token): boolean;
  detokenize(tokens: readonly Token[]): string;
  createContext(o: { contextSize: { max: number }; sequences: number; threads?: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}

export interface Llama {
  loadModel(o: { modelPath: string }): Promise<LlamaModel>;
  dispose(): Promise<void>;
}

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/** The module; L is its LlamaLogLevel enum, whose values are taken from the module, never written here. */
export interface NodeLlamaCpp<L extends string = string & { __logLevel?: never }> {
  getLlama(o: { build: 'never'; gpu: 'auto' | false | 'cuda' | 'vulkan' | 'metal'; progressLogs: boolean; logLevel: L }): Promise<Llama>;
  LlamaLogLevel: Record<LogLevel, L>;
  resolveChatWrapper(model: LlamaModel): ChatWrapper;
}
