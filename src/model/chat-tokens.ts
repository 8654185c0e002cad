// Token ids and logprobs from an OpenAI-compatible chat response, in the
// shapes servers actually send:
// - logprobs: `choices[0].logprobs.content[i].logprob` (OpenAI, vLLM, llama.cpp server);
// - sampled ids: `choices[0].token_ids` (vLLM `return_token_ids`), else
//   `choices[0].tokens` (llama.cpp server `return_tokens`), else the `id` of
//   each logprob entry (llama.cpp server), else tokens written as
//   `token_id:N` (vLLM `return_tokens_as_token_ids`);
// - prompt ids: top-level `prompt_token_ids` (vLLM), or on the choice.
import type { TurnTokens } from './types.js';

interface RawLogprob {
  token?: unknown;
  logprob?: unknown;
  id?: unknown;
}

const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => Number.isInteger(x));

function idsFromLogprobs(entries: RawLogprob[]): number[] | undefined {
  const ids = entries.map((e) => {
    if (Number.isInteger(e.id)) return e.id as number;
    const m = typeof e.token === 'string' ? /^token_id:(\d+)$/.exec(e.token) : null;
    return m ? Number(m[1]) : undefined;
  });
  return ids.every((x) => x !== undefined) ? (ids as number[]) : undefined;
}

/**
 * The turn's tokens, or undefined when the response lacks sampled ids or
 * logprobs, or they disagree in length (never a half-filled record: training
 * needs both, aligned).
 */
export function parseTurnTokens(raw: unknown): TurnTokens | undefined {
  const data = raw as { choices?: Record<string, unknown>[]; prompt_token_ids?: unknown } | null;
  const choice = data?.choices?.[0];
  if (!choice) return undefined;
  const content = (choice.logprobs as { content?: unknown } | null | undefined)?.content;
  const entries = Array.isArray(content) ? (content as RawLogprob[]) : undefined;
  if (!entries || !entries.every((e) => typeof e.logprob === 'number')) return undefined;
  const logprobs = entries.map((e) => e.logprob as number);
  const ids = isIntArray(choice.token_ids) ? choice.token_ids : isIntArray(choice.tokens) ? choice.tokens : idsFromLogprobs(entries);
  if (!ids || ids.length !== logprobs.length) return undefined;
  const promptIds = isIntArray(data.prompt_token_ids) ? data.prompt_token_ids : isIntArray(choice.prompt_token_ids) ? choice.prompt_token_ids : undefined;
  return { ...(promptIds ? { promptIds } : {}), ids, logprobs };
}
