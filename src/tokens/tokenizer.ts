// A model's own tokenizer and chat template, read from a local model folder
// as Hugging Face lays it out: tokenizer.json, tokenizer_config.json and, in
// newer folders, chat_template.jinja. Tokenization is @huggingface/tokenizers;
// nothing here knows a model family.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';

/** The tokenizer a renderer needs: text to ids and back, special tokens recognised in text, never added around it. */
export interface TextTokenizer {
  encode(text: string): number[];
  /** Special tokens kept: the renderer parses them. */
  decode(ids: readonly number[]): string;
  /** The id of a token written as text, e.g. "<|im_end|>", if it is one token. */
  tokenId(token: string): number | undefined;
  /** Ids of the added tokens (chat markers, tool tags): what a token model may treat as structure. */
  readonly addedIds: readonly number[];
  /** One more than the largest id. */
  readonly vocabSize: number;
}

export interface ModelFolder {
  dir: string;
  tokenizer: TextTokenizer;
  /** The Jinja chat template (the "default" one when the folder names several). */
  chatTemplate: string;
  /** Values templates read besides messages (bos_token, eos_token). */
  specialTokens: { bos_token?: string; eos_token?: string };
}

const MAX_TOKENIZER_BYTES = 64 * 1024 * 1024;

function readJson(path: string): Record<string, unknown> {
  if (statSync(path).size > MAX_TOKENIZER_BYTES) throw new UserError(`${path} is larger than ${MAX_TOKENIZER_BYTES} bytes`);
  let v: unknown;
  try {
    v = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError(`${path} is not valid JSON: ${errorMessage(err)}`);
  }
  if (!isRecord(v)) throw new UserError(`${path} does not hold a JSON object`);
  return v;
}

/** A token as tokenizer_config.json writes it: a string, or an AddedToken object with `content`. */
function tokenText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  return isRecord(v) && typeof v.content === 'string' ? v.content : undefined;
}

/** The chat template: chat_template.jinja beside the config wins (transformers does the same), else the config's string or its "default" entry. */
function chatTemplateOf(dir: string, config: Record<string, unknown>): string {
  const file = join(dir, 'chat_template.jinja');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  const t = config.chat_template;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) {
    const named = t.filter(isRecord).find((x) => x.name === 'default')?.template;
    if (typeof named === 'string') return named;
  }
  throw new UserError(`no chat template in ${dir}`, 'the folder needs chat_template.jinja or a chat_template in tokenizer_config.json');
}

/** Wraps a @huggingface/tokenizers Tokenizer in the narrow interface the renderer uses. */
export function textTokenizer(tokenizerJson: Record<string, unknown>, config: Record<string, unknown>): TextTokenizer {
  const tok = new Tokenizer(tokenizerJson, config);
  const added = [...tok.get_added_tokens_decoder().keys()].sort((a, b) => a - b);
  const vocab = tok.get_vocab(true);
  let max = -1;
  for (const id of vocab.values()) max = Math.max(max, id);
  return {
    encode: (text) => tok.encode(text, { add_special_tokens: false }).ids,
    decode: (ids) => tok.decode([...ids], { skip_special_tokens: false, clean_up_tokenization_spaces: false }),
    tokenId: (token) => tok.token_to_id(token),
    addedIds: added,
    vocabSize: max + 1,
  };
}

/** Reads a model folder; a missing or malformed file is a UserError naming it. */
export function loadModelFolder(dir: string): ModelFolder {
  for (const f of ['tokenizer.json', 'tokenizer_config.json']) {
    if (!existsSync(join(dir, f)))
      throw new UserError(`${join(dir, f)} not found`, 'give a folder holding a Hugging Face tokenizer (tokenizer.json, tokenizer_config.json)');
  }
  const config = readJson(join(dir, 'tokenizer_config.json'));
  let tokenizer: TextTokenizer;
  try {
    tokenizer = textTokenizer(readJson(join(dir, 'tokenizer.json')), config);
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`cannot load the tokenizer in ${dir}: ${errorMessage(err)}`);
  }
  const bos = tokenText(config.bos_token);
  const eos = tokenText(config.eos_token);
  return {
    dir,
    tokenizer,
    chatTemplate: chatTemplateOf(dir, config),
    specialTokens: { ...(bos !== undefined ? { bos_token: bos } : {}), ...(eos !== undefined ? { eos_token: eos } : {}) },
  };
}
