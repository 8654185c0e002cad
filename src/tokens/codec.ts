// One model's chat codec: its tokenizer, its template and what probing the
// template found. Everything a language-model actor needs to turn messages
// into prompt tokens and sampled tokens back into a message.
import type { AssistantMessage, ToolSpec } from '../model/types.js';
import { type ChatFormat, probeFormat } from './format.js';
import { parseAssistant } from './parse.js';
import { ChatTemplate, type TemplateOptions } from './template.js';
import { loadModelFolder, type ModelFolder, type TextTokenizer } from './tokenizer.js';

export class ChatCodec {
  readonly template: ChatTemplate;
  readonly format: ChatFormat;

  constructor(
    readonly folder: ModelFolder,
    options: TemplateOptions = {},
  ) {
    this.template = new ChatTemplate(folder, options);
    this.format = probeFormat(this.template, folder.tokenizer);
  }

  static load(dir: string, options: TemplateOptions = {}): ChatCodec {
    return new ChatCodec(loadModelFolder(dir), options);
  }

  get tokenizer(): TextTokenizer {
    return this.folder.tokenizer;
  }

  /** Sampled tokens as an assistant message (`turn` numbers its tool-call ids). */
  parse(sampled: readonly number[], tools: readonly ToolSpec[], turn: number): AssistantMessage {
    return parseAssistant(this.tokenizer.decode(sampled), this.format, tools, turn);
  }
}
