// A loopback TCP proxy that can spoil chosen HTTP answers on real sockets: it
// forwards the request (so the server does the work), then drops the
// connection or answers 503/429 in the server's place. It also records the
// request line and body text of everything that passed, to see what retries sent.
import { createServer, connect, type Socket } from 'node:net';

export type Spoil = 'drop' | '503' | '429';

export interface SeenRequest {
  method: string;
  path: string;
  /** Head and body text as sent (the body may be in later chunks, appended here). */
  text: string;
}

export interface FlakyProxy {
  url: string;
  seen: SeenRequest[];
  /** Spoils the answers to the next `times` requests for `path` (e.g. '/api/v1/forward_backward'). */
  spoil(path: string, how: Spoil, times?: number): void;
  close(): Promise<void>;
}

const REQUEST_LINE = /^(GET|POST|PUT|DELETE) (\S+) HTTP\/1\.[01]\r\n/;

function fakeAnswer(status: number): string {
  const body = JSON.stringify({ detail: `injected ${status} by the test proxy` });
  const reason = status === 503 ? 'Service Unavailable' : 'Too Many Requests';
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`;
}

export async function startFlakyProxy(target: string): Promise<FlakyProxy> {
  const { hostname, port } = new URL(target);
  const seen: SeenRequest[] = [];
  const rules: { path: string; how: Spoil; left: number }[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    let spoilNext: Spoil | undefined;
    let last: SeenRequest | undefined;
    client.on('data', (chunk) => {
      const text = chunk.toString('latin1');
      const m = REQUEST_LINE.exec(text);
      if (m) {
        last = { method: m[1]!, path: m[2]!, text };
        seen.push(last);
        const rule = rules.find((r) => r.path === m[2] && r.left > 0);
        if (rule) {
          rule.left--;
          spoilNext = rule.how;
        }
      } else if (last) {
        last.text += text;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!spoilNext) return void client.write(chunk);
      if (spoilNext === 'drop') client.destroy();
      else client.end(fakeAnswer(Number(spoilNext)));
      upstream.destroy();
    });
    const teardown = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', teardown).on('error', teardown);
    upstream.on('close', teardown).on('error', teardown);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    seen,
    spoil: (path, how, times = 1) => void rules.push({ path, how, left: times }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
