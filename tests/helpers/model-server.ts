// A scripted model behind a real HTTP server on loopback, speaking the
// OpenAI chat-completions protocol. It is honest about being scripted: every
// reply comes from the function the test gives it.
import { createServer, type Server } from 'node:http';

export interface ScriptedRequest {
  body: { model: string; messages: { role: string; content: string }[]; [k: string]: unknown };
  headers: Record<string, string | string[] | undefined>;
}

/** One scripted reply. Everything but `content` is optional and absent from the reply unless given. */
export interface ScriptedReply {
  status?: number;
  /** null is sent as a JSON null (a reply with only tool calls). */
  content?: string | null;
  delayMs?: number;
  /** `arguments` as given: a string is sent verbatim (it may be malformed JSON). */
  toolCalls?: { id?: string; name: string; arguments: string | Record<string, unknown> }[];
  /** Reasoning text, under `reasoning_content` (default) or `reasoning` as some servers name it. */
  reasoning?: string;
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Per-token logprobs, as `choices[0].logprobs.content`; `id` is llama.cpp server's token id field. */
  logprobs?: { token: string; logprob: number; id?: number }[];
  /** vLLM's `return_token_ids` fields: `choices[0].token_ids` and top-level `prompt_token_ids`. */
  tokenIds?: number[];
  promptTokenIds?: number[];
  finishReason?: string | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

export type Script = (req: ScriptedRequest, n: number) => ScriptedReply;

function replyBody(reply: ScriptedReply, model: string, n: number): unknown {
  const message: Record<string, unknown> = { role: 'assistant', content: reply.content === undefined ? '' : reply.content };
  if (reply.reasoning !== undefined) message[reply.reasoningField ?? 'reasoning_content'] = reply.reasoning;
  if (reply.toolCalls) {
    message.tool_calls = reply.toolCalls.map((c, i) => ({
      id: c.id ?? `call_${n}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
    }));
  }
  const choice: Record<string, unknown> = {
    index: 0,
    message,
    finish_reason: reply.finishReason !== undefined ? reply.finishReason : reply.toolCalls ? 'tool_calls' : 'stop',
  };
  if (reply.logprobs) choice.logprobs = { content: reply.logprobs.map((l) => ({ ...l, bytes: [...Buffer.from(l.token)], top_logprobs: [] })) };
  if (reply.tokenIds) choice.token_ids = reply.tokenIds;
  return {
    id: `scripted-${n}`,
    object: 'chat.completion',
    model,
    choices: [choice],
    usage: reply.usage ?? { prompt_tokens: 1, completion_tokens: 1 },
    ...(reply.promptTokenIds ? { prompt_token_ids: reply.promptTokenIds } : {}),
  };
}

export async function startScriptedModel(script: Script): Promise<{ url: string; requests: ScriptedRequest[]; close: () => Promise<void> }> {
  const requests: ScriptedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', async () => {
      const r: ScriptedRequest = { body: JSON.parse(raw || '{}'), headers: req.headers };
      requests.push(r);
      const reply = script(r, requests.length);
      if (reply.delayMs) await new Promise((ok) => setTimeout(ok, reply.delayMs));
      if (res.destroyed) return;
      const status = reply.status ?? 200;
      res.writeHead(status, { 'content-type': 'application/json' });
      if (status !== 200) return res.end(JSON.stringify({ error: { message: 'scripted failure' } }));
      res.end(JSON.stringify(replyBody(reply, r.body.model, requests.length)));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
