// The `frognano` command.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { SpecError } from '../env/spec.js';
import { errorMessage, networkFailure, StateError, UserError } from '../util/errors.js';
import { STORE_FILE } from '../store/store.js';
import { storageFailure } from '../util/storage-failure.js';
import { stringFlag } from './flags.js';
import { isRecord } from '../util/guards.js';
import { dataDirPath, packageRoot } from '../util/paths.js';
import type { CliContext } from './context.js';
import { ENV_HELP, envCommand } from './env.js';
import { EVAL_HELP, evalCommand } from './eval.js';
import { SOLVE_HELP, solveCommand } from './solve.js';
import { TRAIN_HELP, trainCommand } from './train.js';
import { TINKER_DEV_HELP, tinkerDevCommand } from './tinker-dev.js';
import { SYNTH_HELP, synthCommand } from './synth.js';
import { TASK_HELP, taskCommand } from './task.js';
import { SERVE_HELP, serveCommand } from './serve.js';
import { GC_HELP, gcCommand } from './gc.js';
import { EVIDENCE_HELP, evidenceCommand } from './evidence.js';
import { TRAJ_HELP, trajCommand } from './traj.js';
import { QUEUE_HELP, queueCommand, WORKER_HELP, workerCommand } from './worker.js';
import { CommandLineError, parseCommandLine, type ParsedArgs } from './options.js';

const HELP = `frognano: train small coding agents with RL on tasks synthesized at the frontier of learnability

Usage: frognano <command> [options]

Commands:
  env list | add | check    manage the environments tasks are made from (frognano env --help)
  synth                     synthesize and validate tasks (frognano synth --help)
  task list | validate | export | import   stored tasks (frognano task --help)
  traj export               trajectories as Harbor ATIF, mini-swe-agent files or OpenAI JSONL (frognano traj --help)
  eval                      run a model on tasks, report pass@1 / pass@k (frognano eval --help)
  solve                     run the agent on your own repository, print the diff (frognano solve --help)
  train                     online RL at the frontier of learnability: the embedded policy, or a
                            language model through the Tinker API (frognano train --help)
  tinker-dev                a Tinker-compatible dev server with a tiny token model (frognano tinker-dev --help)
  serve                     a local web dashboard: runs, curves, the frontier, tasks, trajectories (frognano serve --help)
  gc                        what the store keeps per run; prune old runs and trajectories (frognano gc --help)
  worker                    run rollouts, grading and validation from a Redis queue (frognano worker --help)
  queue status              a queue's jobs, workers and throughput (frognano queue --help)
  evidence run | report     the protocol that tests the frontier curriculum against fixed task sets (frognano evidence --help)

Global options:
  --data-dir DIR    where the registry, snapshots and workspaces live (default ./.frognano,
                    or $FROGNANO_HOME)
  --runtime NAME    bwrap (default where it works), local (unisolated), docker
  --json            machine-readable output
  --debug           on a failure, also print its stack trace
  -h, --help        this help
  -v, --version     the version`;

const USAGE: Record<string, string> = {
  help: HELP,
  env: ENV_HELP,
  synth: SYNTH_HELP,
  task: TASK_HELP,
  traj: TRAJ_HELP,
  eval: EVAL_HELP,
  solve: SOLVE_HELP,
  train: TRAIN_HELP,
  'tinker-dev': TINKER_DEV_HELP,
  serve: SERVE_HELP,
  gc: GC_HELP,
  worker: WORKER_HELP,
  queue: QUEUE_HELP,
  evidence: EVIDENCE_HELP,
};

/** A usage error as every command prints it: what was wrong, how to fix it, and the command's usage line. */
function usageError(command: string | undefined, err: UserError, sub?: string): string {
  const known = command !== undefined && Object.hasOwn(USAGE, command);
  const name = known && command !== 'help' ? `frognano ${command}` : 'frognano';
  const message = err.message.startsWith(`${name}: `) ? err.message : `${name}: ${err.message}`;
  const lines = (known ? USAGE[command]! : HELP).split('\n');
  const at = lines.findIndex((l) => l.startsWith('Usage:'));
  // A command with subcommands shows the line of the one used.
  const subLine = sub ? lines.find((l) => l.trim().startsWith(`frognano ${command} ${sub}`)) : undefined;
  const usage = lines[at]!.trim() === 'Usage:' ? `Usage: ${(subLine ?? lines[at + 1]!).trim()}` : lines[at]!;
  return `${message}${err.hint ? `\n  fix: ${err.hint}` : ''}\n${usage}\n(${name} --help lists every option)`;
}

/** A question on the terminal, where stdin and stderr are one. */
function terminalAsk(): Pick<CliIo, 'ask'> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return {};
  return {
    ask: async (question) => {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}

function version(): string {
  const pkg: unknown = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
  return isRecord(pkg) && typeof pkg.version === 'string' ? pkg.version : 'unknown';
}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** How a command asks the user (gc before removing runs); by default the terminal's, absent without one. */
  ask?: (question: string) => Promise<string>;
}

export async function main(argv: string[], io: CliIo = { out: console.log, err: console.error, ...terminalAsk() }): Promise<number> {
  let parsed: ParsedArgs;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    if (!(err instanceof CommandLineError)) throw err;
    io.err(usageError(err.command, err, err.sub));
    return 2;
  }
  const { command, positionals } = parsed;
  const ctx: CliContext = { positionals, flags: parsed.flags, out: io.out, err: io.err, argv, ...(io.ask ? { ask: io.ask } : {}) };
  const help = Object.hasOwn(USAGE, command ?? 'help') ? USAGE[command ?? 'help'] : undefined;
  if (parsed.flags.help && help) {
    io.out(help);
    return 0;
  }
  if (parsed.flags.version) {
    io.out(version());
    return 0;
  }
  try {
    switch (command) {
      case undefined:
      case 'help':
        io.out(HELP);
        return 0;
      case 'env':
        return await envCommand(ctx);
      case 'synth':
        return await synthCommand(ctx);
      case 'task':
        return await taskCommand(ctx);
      case 'traj':
        return await trajCommand(ctx);
      case 'eval':
        return await evalCommand(ctx);
      case 'solve':
        return await solveCommand(ctx);
      case 'train':
        return await trainCommand(ctx);
      case 'evidence':
        return await evidenceCommand(ctx);
      case 'tinker-dev':
        return await tinkerDevCommand(ctx);
      case 'serve':
        return await serveCommand(ctx);
      case 'gc':
        return await gcCommand(ctx);
      case 'worker':
        return await workerCommand(ctx);
      case 'queue':
        return await queueCommand(ctx);
      default:
        io.err(`frognano: unknown command "${command}"\nRun frognano --help for usage.`);
        return 2;
    }
  } catch (err) {
    const name = command && Object.hasOwn(USAGE, command) && command !== 'help' ? `frognano ${command}` : 'frognano';
    const dir = dataDirPath(stringFlag(parsed.flags, 'data-dir'));
    // An unreachable server is told by its code alone; only other errors are worth a probe write to the data directory.
    const known = err instanceof StateError ? err : (networkFailure(err) ?? storageFailure(err, dir, join(dir, STORE_FILE)));
    if (parsed.flags.debug && err instanceof Error) io.err(err.stack ?? err.message);
    if (known) {
      io.err(`${name}: ${known.message}${known.hint ? `\n  fix: ${known.hint}` : ''}`);
      return 1;
    }
    if (err instanceof UserError) {
      io.err(usageError(command, err, positionals[0]));
      return 2;
    }
    if (err instanceof SpecError) {
      io.err(`frognano: ${err.message}`);
      return 2;
    }
    // A fault of frognano itself: its message, and the stack only on request.
    io.err(
      `${name}: internal error: ${errorMessage(err)}${parsed.flags.debug ? '' : '\n  (run again with --debug for the stack trace, and please report it)'}`,
    );
    return 70;
  }
}
