// Choosing the model from command-line options:
//   --model NAME [--base-url URL] [--api-key KEY] [--model-timeout S] [--extra-body JSON]
//       any OpenAI-compatible chat server (OPENAI_BASE_URL / OPENAI_API_KEY
//       fill in what the flags leave out);
//   --model-path FILE.gguf
//       an embedded GGUF model through node-llama-cpp;
//   --model embedded
//       the embedded RL policy: not made here but by the CLI's model factory
//       (src/cli/models.ts), since it needs a policy and a seed per attempt.
import { ChatModel } from './chat-model.js';
import type { Model } from './types.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';

/** The option names as the CLI spells them (strings, as node:util parseArgs gives them). */
export interface ModelFlags {
  model?: string;
  'base-url'?: string;
  'api-key'?: string;
  /** Seconds. */
  'model-timeout'?: string;
  'extra-body'?: string;
  'model-path'?: string;
}

/** What callers in code (trainer, probes) may add to the flags. */
export interface ModelExtras {
  /** Ask for per-token logprobs (and token ids from servers that return them). */
  logprobs?: boolean;
  /** Chat servers: send vLLM's / llama.cpp server's token id fields (see ChatModelOptions.tokenIds). */
  tokenIds?: boolean;
  /** Environment for OPENAI_BASE_URL / OPENAI_API_KEY; default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** parseArgs option specs for the flags above, for commands that take a model. */
export const MODEL_OPTIONS = {
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'model-timeout': { type: 'string' },
  'extra-body': { type: 'string' },
  'model-path': { type: 'string' },
} as const;

export const MODEL_HELP = `Model options:
  --model NAME         a model served by an OpenAI-compatible chat server (vLLM, SGLang,
                       llama.cpp server, Ollama, hosted APIs)
  --base-url URL       the server, e.g. http://127.0.0.1:8000/v1 (default $OPENAI_BASE_URL)
  --api-key KEY        (default $OPENAI_API_KEY)
  --model-timeout S    seconds to wait for one reply before retrying (default 120)
  --extra-body JSON    fields merged into every request, e.g. '{"chat_template_kwargs":{"enable_thinking":false}}'
  --model-path FILE    an embedded GGUF model run in process by node-llama-cpp`;

const CHAT_ONLY = ['base-url', 'api-key', 'model-timeout', 'extra-body'] as const;

function parseExtraBody(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UserError(
      `--extra-body is not valid JSON: ${errorMessage(err)}`,
      `pass a JSON object, e.g. --extra-body '{"chat_template_kwargs":{"enable_thinking":false}}'`,
    );
  }
  if (!isRecord(value)) throw new UserError('--extra-body must be a JSON object', `e.g. --extra-body '{"top_k":20}'`);
  return value;
}

function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (!text.trim() || !Number.isFinite(seconds) || seconds <= 0)
    throw new UserError(`--model-timeout must be a positive number of seconds, not "${text}"`, 'e.g. --model-timeout 300');
  return Math.round(seconds * 1000);
}

function parseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UserError(`--base-url "${text}" is not a URL`, 'e.g. --base-url http://127.0.0.1:8000/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UserError(`--base-url must be http or https, not ${url.protocol}`, 'e.g. --base-url http://127.0.0.1:8000/v1');
  return text;
}

/** Builds the Model the flags describe; UserError when they are missing or conflict. */
export async function createModel(flags: ModelFlags, extras: ModelExtras = {}): Promise<Model> {
  const env = extras.env ?? process.env;
  const path = flags['model-path'];
  if (path !== undefined) {
    if (flags.model !== undefined)
      throw new UserError('pass either --model or --model-path, not both', '--model names a model on a chat server; --model-path is a local .gguf file');
    const extra = CHAT_ONLY.find((k) => flags[k] !== undefined);
    if (extra) throw new UserError(`--${extra} is for a chat server (--model NAME), not --model-path`, `drop --${extra}`);
    const { GgufModel } = await import('./llama.js');
    return GgufModel.load({ modelPath: path });
  }
  if (flags.model === undefined || flags.model === '') {
    throw new UserError('no model given', 'pass --model NAME --base-url URL for a chat server, or --model-path FILE.gguf for an embedded GGUF model');
  }
  if (flags.model === 'embedded') {
    // The embedded RL policy is built by the CLI's model factory (src/cli/models.ts), which knows its checkpoint and seeds.
    throw new UserError(
      '--model embedded is the embedded RL policy, which this command does not take',
      'use frognano eval or solve --model embedded [--checkpoint FILE], or a chat / GGUF model here',
    );
  }
  const baseUrl = flags['base-url'] ?? env.OPENAI_BASE_URL;
  if (!baseUrl) throw new UserError(`--model ${flags.model} needs a chat server`, 'pass --base-url http://host:port/v1 or set OPENAI_BASE_URL');
  const apiKey = flags['api-key'] ?? env.OPENAI_API_KEY;
  return new ChatModel({
    baseUrl: parseBaseUrl(baseUrl),
    model: flags.model,
    ...(apiKey ? { apiKey } : {}),
    ...(flags['model-timeout'] !== undefined ? { timeoutMs: parseTimeout(flags['model-timeout']) } : {}),
    ...(flags['extra-body'] !== undefined ? { extraBody: parseExtraBody(flags['extra-body']) } : {}),
    ...(extras.logprobs ? { logprobs: true } : {}),
    ...(extras.tokenIds ? { tokenIds: true } : {}),
  });
}
