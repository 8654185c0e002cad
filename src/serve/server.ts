// The dashboard's HTTP server: Node's own, read-only (GET and HEAD only),
// loopback by default. It serves the page and its bundled assets, a JSON API
// over the store, and one server-sent-events stream per run page that says
// when the run has moved, so open pages update while a run trains.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Store } from '../store/store.js';
import { errorMessage } from '../util/errors.js';
import { isPlainName } from '../util/names.js';
import { packageRoot } from '../util/paths.js';
import { RunQueries } from './runs.js';
import { TaskQueries, type TaskFilter } from './tasks.js';

export interface ServeOptions {
  store: Store;
  dataDir: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** How often a stream looks for news, in ms (default 1000). */
  pollMs?: number;
}

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };

/** The page's files: ours under web/, uPlot's from its package (never a network fetch). */
function assets(): Map<string, { body: Buffer; type: string }> {
  const uplot = dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));
  const files: [string, string][] = [
    ['/', join(packageRoot, 'web', 'index.html')],
    ['/app.js', join(packageRoot, 'web', 'app.js')],
    ['/views.js', join(packageRoot, 'web', 'views.js')],
    ['/charts.js', join(packageRoot, 'web', 'charts.js')],
    ['/app.css', join(packageRoot, 'web', 'app.css')],
    ['/uPlot.iife.min.js', join(uplot, 'uPlot.iife.min.js')],
    ['/uPlot.min.css', join(uplot, 'uPlot.min.css')],
  ];
  return new Map(files.map(([route, path]) => [route, { body: readFileSync(path), type: TYPES[path.slice(path.lastIndexOf('.'))]! }]));
}

export const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The page shows what agents wrote, always as text; this policy is the second
 * line: nothing runs or loads from anywhere but this server.
 */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

export class Dashboard {
  readonly runs: RunQueries;
  readonly tasks: TaskQueries;
  private readonly files = assets();
  private readonly server: Server;
  private readonly streams = new Set<ServerResponse>();

  constructor(readonly opts: ServeOptions) {
    this.runs = new RunQueries(opts.store, opts.dataDir);
    this.tasks = new TaskQueries(opts.store, opts.dataDir);
    this.server = createServer((req, res) => this.handle(req, res));
  }

  /** Starts listening; the URL to open. */
  async listen(): Promise<string> {
    await new Promise<void>((ok, fail) => {
      this.server.once('error', fail);
      this.server.listen(this.opts.port, this.opts.host, () => ok());
    });
    const addr = this.server.address();
    const port = typeof addr === 'object' && addr !== null ? addr.port : this.opts.port;
    const host = this.opts.host.includes(':') ? `[${this.opts.host}]` : this.opts.host;
    return `http://${host}:${port}/`;
  }

  async close(): Promise<void> {
    for (const s of this.streams) s.end();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('the dashboard is read-only\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://dashboard');
    try {
      const file = this.files.get(url.pathname);
      if (file) {
        res
          .writeHead(200, { 'content-type': file.type, 'cache-control': 'no-cache', 'content-security-policy': CSP, 'x-content-type-options': 'nosniff' })
          .end(req.method === 'HEAD' ? undefined : file.body);
        return;
      }
      if (url.pathname.startsWith('/api/')) return this.api(url, req, res);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    } catch (err) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: errorMessage(err) }));
    }
  }

  private api(url: URL, req: IncomingMessage, res: ServerResponse): void {
    let parts: string[];
    try {
      parts = url.pathname.split('/').slice(2).map(decodeURIComponent);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the path is not valid percent-encoding' }));
      return;
    }
    const q = url.searchParams;
    const json = (body: unknown) => {
      if (body === undefined) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
    };
    const [head, name, sub, id] = parts;
    // Run names and task ids become paths under the data directory: only plain names, never one that leads out of it.
    if ((head === 'runs' && [name, id].some((p) => p !== undefined && !isPlainName(p))) || parts.length > 4) {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: 'run names and task ids are plain names (letters, digits, ".", "_", "-")' }));
      return;
    }
    if (head === 'runs' && name === undefined) return json(this.runs.list());
    if (head === 'runs' && name !== undefined && sub === undefined) return json(this.runs.series(name));
    if (head === 'runs' && name !== undefined && sub === 'events') return this.stream(name, req, res);
    if (head === 'runs' && name !== undefined && sub === 'tasks' && id === undefined) return json(this.tasks.list(name, filterOf(q)));
    if (head === 'runs' && name !== undefined && sub === 'tasks' && id !== undefined) return json(this.tasks.task(name, id));
    if (head === 'attempts' && name !== undefined && /^\d+$/.test(name)) return json(this.tasks.attempt(Number(name)));
    json(undefined);
  }

  /** Server-sent events: `update` whenever the run's fingerprint changes, a comment every 15 s to keep proxies open. */
  private stream(name: string, req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    let last = '';
    let beats = 0;
    const tick = () => {
      const v = this.runs.version(name);
      if (v !== last) res.write(`event: update\ndata: ${JSON.stringify({ version: v })}\n\n`);
      else if (++beats % 15 === 0) res.write(': alive\n\n');
      last = v;
    };
    tick();
    const timer = setInterval(tick, this.opts.pollMs ?? 1000);
    this.streams.add(res);
    const stop = () => {
      clearInterval(timer);
      this.streams.delete(res);
    };
    req.on('close', stop);
    res.on('close', stop);
  }
}

function filterOf(q: URLSearchParams): TaskFilter {
  const f: TaskFilter = {};
  for (const k of ['env', 'strategy', 'operator'] as const) {
    const v = q.get(k);
    if (v) f[k] = v;
  }
  for (const k of ['min', 'max'] as const) {
    const v = q.get(k);
    if (v !== null && v !== '' && Number.isFinite(Number(v))) f[k] = Number(v);
  }
  const h = q.get('heldOut');
  if (h === 'true' || h === 'false') f.heldOut = h === 'true';
  return f;
}
