// A scripted stand-in for a vLLM server's /v1/completions, on a real HTTP
// server on loopback. It samples nothing: every reply comes from the script
// the test gives, shaped like vLLM's CompletionResponse (token_ids,
// logprobs.token_logprobs, finish_reason, stop_reason).
import { createServer, type Server } from 'node:http';

export interface CompletionsRequest {
  url: string;
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** One scripted reply; a field left out takes the shape vLLM would send for a normal sample. */
export interface CompletionsReply {
  /** Non-200 answers carry vLLM's error body with `errorMessage`. */
  status?: number;
  errorMessage?: string;
  /** Close the connection without answering (a network failure). */
  hangUp?: boolean;
  delayMs?: number;
  /** Sent as `choices[0].token_ids`; omitted when `omitTokenIds`. */
  tokenIds?: number[];
  omitTokenIds?: boolean;
  /** `choices[0].logprobs.token_logprobs`; null sends `logprobs: null` (logprobs not returned). */
  logprobs?: (number | null)[] | null;
  /** `logprobs.tokens`; default `token_id:N` for each id, as with return_tokens_as_token_ids. */
  tokens?: string[];
  finishReason?: string | null;
  stopReason?: number | string | null;
  /** Sent verbatim instead of a built reply (a string is sent as is, e.g. malformed JSON). */
  raw?: unknown;
}

export type CompletionsScript = (req: CompletionsRequest, n: number) => CompletionsReply;

function replyBody(reply: CompletionsReply, model: unknown, prompt: unknown, n: number): unknown {
  const ids = reply.tokenIds ?? [];
  const tokens = reply.tokens ?? ids.map((id) => `token_id:${id}`);
  const logprobs =
    reply.logprobs === null
      ? null
      : {
          text_offset: tokens.map((_, i) => i),
          token_logprobs: reply.logprobs ?? ids.map(() => -0.5),
          tokens,
          top_logprobs: tokens.map((t, i) => ({ [t]: reply.logprobs?.[i] ?? -0.5 })),
        };
  const choice: Record<string, unknown> = {
    index: 0,
    text: '',
    logprobs,
    finish_reason: reply.finishReason === undefined ? 'stop' : reply.finishReason,
    stop_reason: reply.stopReason ?? null,
    prompt_token_ids: Array.isArray(prompt) ? prompt : null,
  };
  if (!reply.omitTokenIds) choice.token_ids = ids;
  return {
    id: `cmpl-scripted-${n}`,
    object: 'text_completion',
    created: 0,
    model,
    choices: [choice],
    usage: { prompt_tokens: Array.isArray(prompt) ? prompt.length : 0, completion_tokens: ids.length, total_tokens: 0 },
  };
}

export async function startCompletionsServer(script: CompletionsScript): Promise<{ url: string; requests: CompletionsRequest[]; close: () => Promise<void> }> {
  const requests: CompletionsRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      const r: CompletionsRequest = { url: req.url ?? '', body: JSON.parse(raw || '{}'), headers: req.headers };
      requests.push(r);
      const reply = script(r, requests.length);
      // unref: a reply still waiting when the test ends must not hold the process open.
      if (reply.delayMs) await new Promise((ok) => setTimeout(ok, reply.delayMs).unref());
      if (res.destroyed) return;
      if (reply.hangUp) return req.socket.destroy();
      const status = reply.status ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      if (status !== 200) {
        const message = reply.errorMessage ?? 'scripted failure';
        return res.end(JSON.stringify({ error: { message, type: 'BadRequestError', param: null, code: status } }));
      }
      if (reply.raw !== undefined) return res.end(typeof reply.raw === 'string' ? reply.raw : JSON.stringify(reply.raw));
      res.end(JSON.stringify(replyBody(reply, r.body.model, r.body.prompt, requests.length)));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
