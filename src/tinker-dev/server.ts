// A Tinker-compatible HTTP server for tests and local development, on Node's
// own node:http: the endpoints of SkyRL's server (routes.ts) over a tiny
// in-process DevModel. It says what it is in healthz, get_server_capabilities,
// create_session's info_message and its start-up log line.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorMessage } from '../util/errors.js';
import type { DevModel } from './backend.js';
import { BodyInvalid, DEV_SERVER_NOTE, makeRoutes } from './routes.js';
import { DevState, HttpError } from './state.js';

export interface TinkerDevServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  baseModel: string;
  makeModel: (seed: number) => DevModel;
  /** Seconds without a heartbeat before a session's models are unloaded (SkyRL: 300). */
  sessionTimeoutSec?: number;
  /** How often stale sessions are looked for (SkyRL: 60 s); by default a quarter of the timeout, at most 60 s. */
  sessionCleanupIntervalSec?: number;
  /** Where save_weights writes checkpoints as JSON; without it they live in memory only. */
  checkpointDir?: string;
  /** How long retrieve_future holds a pending future before answering 408 (SkyRL: 300 s). */
  futureWaitSec?: number;
  /** A pause before each queued piece of model work, to make futures observably pending in tests. */
  workDelayMs?: number;
  /** Largest LoRA rank create_model accepts (SkyRL's JAX backend default: 32). */
  maxLoraRank?: number;
  /** The seed of the model that base-model sampling uses. */
  baseSeed?: number;
  /** When set, requests must carry it in X-API-Key (SkyRL itself checks no key). */
  apiKey?: string;
  log?: (message: string) => void;
}

export interface TinkerDevServer {
  url: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 256 * 1024 * 1024;
const API_PREFIX = '/api/v1/';

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body === undefined ? null : body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new HttpError(413, `request body over ${MAX_BODY_BYTES} bytes`));
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startTinkerDevServer(opts: TinkerDevServerOptions): Promise<TinkerDevServer> {
  const log = opts.log ?? ((m: string) => console.error(m));
  const timeoutSec = opts.sessionTimeoutSec ?? 300;
  const state = new DevState({ workDelayMs: opts.workDelayMs ?? 0, log });
  const routes = makeRoutes(state, {
    baseModel: opts.baseModel,
    makeModel: opts.makeModel,
    baseSeed: opts.baseSeed ?? 0,
    maxLoraRank: opts.maxLoraRank ?? 32,
    checkpointDir: opts.checkpointDir,
    futureWaitMs: (opts.futureWaitSec ?? 300) * 1000,
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = new URL(req.url ?? '/', 'http://dev').pathname;
    const route = path.startsWith(API_PREFIX) ? routes[path.slice(API_PREFIX.length)] : undefined;
    if (!route) return reply(res, 404, { detail: 'Not Found' });
    if (req.method !== route.method) return reply(res, 405, { detail: 'Method Not Allowed' });
    if (opts.apiKey !== undefined && req.headers['x-api-key'] !== opts.apiKey) return reply(res, 401, { detail: 'Missing or invalid X-API-Key' });
    const text = await readBody(req);
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch (err) {
      return reply(res, 422, { detail: [{ type: 'json_invalid', loc: ['body'], msg: `JSON decode error: ${errorMessage(err)}` }] });
    }
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    reply(res, 200, await route.run(body, gone.signal));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof BodyInvalid) {
        const detail = err.issues.map((i) => ({ type: i.code, loc: ['body', ...i.path.map((p) => (typeof p === 'number' ? p : String(p)))], msg: i.message }));
        return reply(res, 422, { detail });
      }
      if (err instanceof HttpError) return reply(res, err.status, { detail: err.detail });
      log(`tinker dev server: ${req.method} ${req.url}: ${errorMessage(err)}`);
      reply(res, 500, { detail: 'Internal Server Error' });
    });
  });

  // A negative timeout or interval turns expiry off, as in SkyRL.
  const cleanupSec = opts.sessionCleanupIntervalSec ?? Math.min(60, timeoutSec / 4);
  const sweeper =
    timeoutSec >= 0 && cleanupSec >= 0
      ? setInterval(() => state.expireStaleSessions(Date.now(), timeoutSec * 1000), Math.max(10, cleanupSec * 1000))
      : undefined;
  sweeper?.unref();

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => ok());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('tinker dev server: no TCP address after listen');
  const { address: host, port } = address satisfies AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log(`${DEV_SERVER_NOTE}; listening on ${url}, base model '${opts.baseModel}', session timeout ${timeoutSec} s`);

  return {
    url,
    close: async () => {
      clearInterval(sweeper);
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
      await state.drain();
    },
  };
}
