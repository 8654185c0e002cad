// `frognano serve`: the dashboard over a data directory's store, and the
// start of one for `train --serve`. Loopback unless told otherwise, and then
// with a warning: the pages show tasks, code and trajectories.
import { Dashboard, LOOPBACK } from '../serve/server.js';
import { UserError } from '../util/errors.js';
import { dataDir } from '../util/paths.js';
import { Store } from '../store/store.js';
import type { CliContext } from './context.js';
import { intFlag, stringFlag } from './flags.js';
import { untilStopSignal } from '../util/signals.js';

export const DEFAULT_PORT = 8177;

export const SERVE_HELP = `Usage: frognano serve [--port N] [--host H]

A local web dashboard over the data directory's store: runs with their status
and progress (two compared on the same axes), curves against rollouts and
time (mean reward, held-out solve rate with counts and interval, share of
non-degenerate groups, synthesis yield, tampering verdicts), the frontier
(the pool's pass-rate distribution and the controller's knobs), a task
browser and every attempt's trajectory, diff and verifier report. Pages
update while a run trains. Read-only; it needs no network.

  --port N    port (default ${DEFAULT_PORT}; 0: any free port)
  --host H    address to bind (default 127.0.0.1). Another address exposes
              tasks, code and trajectories to whoever can reach it.`;

/** Starts a dashboard; prints its URL (and a warning off loopback). */
export async function startDashboard(ctx: CliContext, store: Store, dir: string): Promise<Dashboard> {
  const host = stringFlag(ctx.flags, 'host') ?? '127.0.0.1';
  const port = intFlag(ctx.flags.port, '--port', DEFAULT_PORT);
  if (port > 65535) throw new UserError(`--port must be at most 65535, got ${port}`);
  if (!LOOPBACK.has(host)) {
    ctx.err(`WARNING: the dashboard binds ${host}: anyone who can reach it can read every task, diff and trajectory in ${dir} (it has no login).`);
  }
  const dash = new Dashboard({ store, dataDir: dir, host, port });
  let url: string;
  try {
    url = await dash.listen();
  } catch (err) {
    const code = err instanceof Error && 'code' in err ? String(err.code) : '';
    if (code === 'EADDRINUSE') throw new UserError(`port ${port} on ${host} is in use`, 'pass --port with another port, or --port 0 for any free one');
    throw err;
  }
  ctx.err(`dashboard: ${url}`);
  return dash;
}

export async function serveCommand(ctx: CliContext): Promise<number> {
  const dir = dataDir(stringFlag(ctx.flags, 'data-dir'));
  const store = new Store(dir);
  const dash = await startDashboard(ctx, store, dir);
  ctx.err('press Ctrl-C to stop');
  await untilStopSignal();
  await dash.close();
  store.close();
  return 0;
}
