// Each command's flags, parsed strictly: a flag another command takes, a
// misspelt one or a missing value is a usage error naming the command, with
// its usage, never the parser's raw text.
import { parseArgs } from 'node:util';
import { UserError } from '../util/errors.js';

type Option = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };
type Options = Record<string, Option>;
const str: Option = { type: 'string' };
const bool: Option = { type: 'boolean' };
const names = (list: string, type: Option) => Object.fromEntries(list.split(' ').map((n) => [n, type]));

export const GLOBAL_OPTIONS: Options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: bool,
  debug: bool,
  'data-dir': str,
  runtime: str,
  image: str,
};

const MODEL = names('model base-url api-key model-path model-timeout extra-body checkpoint', str);

export const COMMAND_OPTIONS: Record<string, Options> = {
  help: {},
  env: {
    ...names('name language runner test-command report test-paths ref from-catalogue out workers probe seed min-yield', str),
    env: { type: 'string', multiple: true },
    all: bool,
    force: bool,
    markdown: bool,
  },
  synth: {
    ...names('env n strategy operators workers seed hint visibility out reference-runs candidate-runs model base-url api-key issue-model bugs', str),
    force: bool,
  },
  task: names('env format out tasks run sample runs seed workers', str),
  traj: names('format out run kind from', str),
  eval: { ...MODEL, ...names('env format k n out seed tasks run trajectories predictions workers max-steps queue', str) },
  solve: { ...MODEL, ...names('repo issue out seed test-command report max-steps', str), apply: bool, force: bool, 'allow-unchecked': bool },
  train: {
    ...names(
      'run curriculum envs held-out families steps budget batch group track extend advantage credit lr epochs learn workers seed target eval-tasks eval-attempts eval-every time-limit ablate forgetting gate',
      str,
    ),
    ...names(
      'learner model tokenizer tinker-url tinker-api-key-env lora-rank loss max-tokens context temperature thinking sampler vllm-url vllm-model max-staleness init-weights',
      str,
    ),
    ...names('port host keep-mb queue', str),
    fresh: bool,
    serve: bool,
    force: bool,
  },
  serve: names('port host', str),
  worker: names('queue concurrency lease-sec name', str),
  queue: names('queue', str),
  evidence: {
    ...names('protocol out hours held-out bugs learner', str),
    force: bool,
    ...names(
      'model tokenizer tinker-url tinker-api-key-env lora-rank loss max-tokens context temperature thinking sampler vllm-url vllm-model max-staleness init-weights lr',
      str,
    ),
  },
  gc: { ...names('run keep-runs keep-mb', str), 'dry-run': bool, yes: bool },
  'tinker-dev': names('tokenizer port host base-model checkpoints session-timeout seed', str),
};

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Record<string, string | boolean | string[] | undefined>;
}

/** The closest known flag, for a "did you mean" (edit distance at most 2). */
function closest(name: string, known: string[]): string | undefined {
  const distance = (a: string, b: string) => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diag = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const up = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
        diag = up;
      }
    }
    return row[b.length]!;
  };
  return known
    .map((k) => ({ k, d: distance(name, k) }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d)[0]?.k;
}

/** A command line the command's usage does not allow; `command` is the command it was for. */
export class CommandLineError extends UserError {
  constructor(
    message: string,
    hint: string | undefined,
    readonly command: string | undefined,
    readonly sub?: string,
  ) {
    super(message, hint);
  }
}

/**
 * The command and its flags. Parsed leniently with the command's own
 * options (so a value may start with a dash: `--seed -3`, `--issue "-v ..."`;
 * `--` ends the flags; `-hv` groups), then every flag is checked.
 */
export function parseCommandLine(argv: string[]): ParsedArgs {
  const all: Options = Object.assign({}, GLOBAL_OPTIONS, ...Object.values(COMMAND_OPTIONS));
  const command = parseArgs({ args: argv, options: all, allowPositionals: true, strict: false }).positionals[0];
  const own = command !== undefined && Object.hasOwn(COMMAND_OPTIONS, command) ? COMMAND_OPTIONS[command]! : command === undefined ? {} : null;
  const options = { ...GLOBAL_OPTIONS, ...(own ?? {}) };
  const parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  if (!own) return { command, positionals: parsed.positionals.slice(1), flags: {} };
  const where = command ? `frognano ${command}` : 'frognano';
  const fail = (message: string, hint?: string) => new CommandLineError(`${where}: ${message}`, hint, command, parsed.positionals[1]);
  for (const t of parsed.tokens) {
    if (t.kind !== 'option') continue;
    const option = Object.hasOwn(options, t.name) ? options[t.name] : undefined;
    if (!option) {
      const near = closest(t.name, Object.keys(options));
      const elsewhere = Object.entries(COMMAND_OPTIONS)
        .filter(([, o]) => Object.hasOwn(o, t.name))
        .map(([c]) => c);
      throw fail(
        `unknown option ${t.rawName}`,
        near ? `did you mean --${near}?` : elsewhere.length ? `--${t.name} belongs to ${elsewhere.map((c) => `frognano ${c}`).join(', ')}` : undefined,
      );
    }
    if (option.type === 'string' && t.value === undefined) throw fail(`--${t.name} needs a value`, `write --${t.name} VALUE`);
    if (option.type === 'boolean' && t.inlineValue) throw fail(`--${t.name} takes no value`, `write --${t.name} alone`);
  }
  return { command, positionals: parsed.positionals.slice(1), flags: parsed.values };
}
