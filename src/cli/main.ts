// The `frognano` command.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SpecError } from '../env/spec.js';
import { UserError } from '../util/errors.js';
import { packageRoot } from '../util/paths.js';
import type { CliContext } from './context.js';
import { ENV_HELP, envCommand } from './env.js';
import { EVAL_HELP, evalCommand } from './eval.js';
import { SOLVE_HELP, solveCommand } from './solve.js';
import { TRAIN_HELP, trainCommand } from './train.js';
import { SYNTH_HELP, synthCommand } from './synth.js';
import { TASK_HELP, taskCommand } from './task.js';

const HELP = `frognano: train small coding agents with RL on tasks synthesized at the frontier of learnability

Usage: frognano <command> [options]

Commands:
  env list | add | check    manage the environments tasks are made from (frognano env --help)
  synth                     synthesize and validate tasks (frognano synth --help)
  task list | validate | export | import   stored tasks (frognano task --help)
  eval                      run a model on tasks, report pass@1 / pass@k (frognano eval --help)
  solve                     run the agent on your own repository, print the diff (frognano solve --help)
  train                     online RL of the embedded policy at the frontier of learnability (frognano train --help)

Global options:
  --data-dir DIR    where the registry, snapshots and workspaces live (default ./.frognano,
                    or $FROGNANO_HOME)
  --runtime NAME    bwrap (default where it works), local (unisolated), docker
  --json            machine-readable output
  -h, --help        this help
  -v, --version     the version`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: { type: 'boolean' },
  all: { type: 'boolean' },
  'data-dir': { type: 'string' },
  runtime: { type: 'string' },
  image: { type: 'string' },
  name: { type: 'string' },
  language: { type: 'string' },
  'test-command': { type: 'string' },
  report: { type: 'string' },
  'test-paths': { type: 'string' },
  ref: { type: 'string' },
  env: { type: 'string' },
  n: { type: 'string' },
  strategy: { type: 'string' },
  operators: { type: 'string' },
  workers: { type: 'string' },
  seed: { type: 'string' },
  hint: { type: 'string' },
  visibility: { type: 'string' },
  out: { type: 'string' },
  'reference-runs': { type: 'string' },
  'candidate-runs': { type: 'string' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'issue-model': { type: 'string' },
  tasks: { type: 'string' },
  format: { type: 'string' },
  // eval and solve
  k: { type: 'string' },
  trajectories: { type: 'string' },
  checkpoint: { type: 'string' },
  'model-path': { type: 'string' },
  'model-timeout': { type: 'string' },
  'extra-body': { type: 'string' },
  repo: { type: 'string' },
  issue: { type: 'string' },
  apply: { type: 'boolean' },
  // train
  run: { type: 'string' },
  fresh: { type: 'boolean' },
  curriculum: { type: 'string' },
  envs: { type: 'string' },
  'held-out': { type: 'string' },
  families: { type: 'string' },
  steps: { type: 'string' },
  budget: { type: 'string' },
  batch: { type: 'string' },
  group: { type: 'string' },
  advantage: { type: 'string' },
  credit: { type: 'string' },
  lr: { type: 'string' },
  epochs: { type: 'string' },
  learn: { type: 'string' },
  target: { type: 'string' },
  'time-limit': { type: 'string' },
  'eval-tasks': { type: 'string' },
  'eval-every': { type: 'string' },
} as const;

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

export async function main(argv: string[], io = { out: console.log, err: console.error }): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    io.err(`frognano: ${(err as Error).message}\nRun frognano --help for usage.`);
    return 2;
  }
  const [command, ...positionals] = parsed.positionals;
  const ctx: CliContext = { positionals, flags: parsed.values, out: io.out, err: io.err };
  if (parsed.values.version) {
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
        if (parsed.values.help) {
          io.out(ENV_HELP);
          return 0;
        }
        return await envCommand(ctx);
      case 'synth':
        if (parsed.values.help) {
          io.out(SYNTH_HELP);
          return 0;
        }
        return await synthCommand(ctx);
      case 'task':
        if (parsed.values.help) {
          io.out(TASK_HELP);
          return 0;
        }
        return await taskCommand(ctx);
      case 'eval':
        if (parsed.values.help) {
          io.out(EVAL_HELP);
          return 0;
        }
        return await evalCommand(ctx);
      case 'solve':
        if (parsed.values.help) {
          io.out(SOLVE_HELP);
          return 0;
        }
        return await solveCommand(ctx);
      case 'train':
        if (parsed.values.help) {
          io.out(TRAIN_HELP);
          return 0;
        }
        return await trainCommand(ctx);
      default:
        io.err(`frognano: unknown command "${command}"\nRun frognano --help for usage.`);
        return 2;
    }
  } catch (err) {
    if (err instanceof UserError) {
      io.err(`frognano: ${err.message}${err.hint ? `\n  fix: ${err.hint}` : ''}`);
      return 2;
    }
    if (err instanceof SpecError) {
      io.err(`frognano: ${err.message}`);
      return 2;
    }
    throw err;
  }
}
