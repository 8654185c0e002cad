// A scripted model behind a real HTTP server on loopback, speaking the
// OpenAI chat-completions protocol. It is honest about being scripted: every
// reply comes from the function the test gives it.
import { createServer, type Server } from 'node:http';

export interface ScriptedRequest {
  body: { model: string; messages: { role: string; content: string }[]; [k: string]: unknown };
  headers: Record<string, string | string[] | undefined>;
}

export type Script = (req: ScriptedRequest, n: number) => { status?: number; content?: string; delayMs?: number };

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
      res.end(
        JSON.stringify({
          id: `scripted-${requests.length}`,
          object: 'chat.completion',
          model: r.body.model,
          choices: [{ index: 0, message: { role: 'assistant', content: reply.content ?? '' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((ok) => { server.closeAllConnections(); server.close(() => ok()); }),
  };
}
