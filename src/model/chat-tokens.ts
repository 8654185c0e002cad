// Token ids and logprobs from an OpenAI-compatible chat response, in the
// shapes servers actually send:
// - logprobs: `choices[0].logprobs.content[i].logprob` (OpenAI, vLLM, llama.cpp server);
// - sampled ids: `choices[0].token_ids` (vLLM `return_token_ids`), else
//   `choices[0].tokens` (llama.cpp server `return_tokens`), else the `id` of
//   each logprob entry (llama.cpp server), else tokens written as
//   `token_id:N` (vLLM `return_tokens_as_token_ids`);
// - prompt ids: top-level `prompt_token_ids` (vLLM), or on the choice.
import { isRecord } from '../util/guards.js';
import type { TurnTokens } from './types.js';

const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isInteger(x));

function idsFromLogprobs(entries: Record<string, unknown>[]): number[] | undefined {
  const ids = entries.map((e) => {
    if (typeof e.id === 'number' && Number.isInteger(e.id)) return e.id;
    const m = typeof e.token === 'string' ? /^token_id:(\d+)$/.exec(e.token) : null;
    return m ? Number(m[1]) : undefined;
  });
  return ids.every((x) => x !== undefined) ? ids : undefined;
}

/**
 * The turn's tokens, or undefined when the response lacks sampled ids or
 * logprobs, or they disagree in length (never a half-filled record: training
 * needs both, aligned).
 */
export function parseTurnTokens(raw: unknown): TurnTokens | undefined {
  if (!isRecord(raw) || !Array.isArray(raw.choices)) return undefined;
  const choice: unknown = raw.choices[0];
  if (!isRecord(choice)) return undefined;
  const content = isRecord(choice.logprobs) ? choice.logprobs.content : undefined;
  const entries: unknown[] | undefined = Array.isArray(content) ? content : undefined;
  if (!entries || !entries.every(isRecord)) return undefined;
  const logprobs = entries.map((e) => e.logprob);
  if (!logprobs.every((x) => typeof x === 'number')) return undefined;
  const ids = isIntArray(choice.token_ids) ? choice.token_ids : isIntArray(choice.tokens) ? choice.tokens : idsFromLogprobs(entries);
  if (!ids || ids.length !== logprobs.length) return undefined;
  const promptIds = isIntArray(raw.prompt_token_ids) ? raw.prompt_token_ids : isIntArray(choice.prompt_token_ids) ? choice.prompt_token_ids : undefined;
  return { ...(promptIds ? { promptIds } : {}), ids, logprobs };
}
