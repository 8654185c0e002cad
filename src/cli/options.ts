// Each command's flags, parsed strictly: a flag another command takes, a
// misspelt one or a missing value is a usage error naming the command, with
// its usage, never the parser's raw text.
import { parseArgs } from 'node:util';
import { UserError } from '../util/errors.js';

type Option = { type: 'string' | 'boolean'; short?: string };
type Options = Record<string, Option>;
const str: Option = { type: 'string' };
const bool: Option = { type: 'boolean' };
const names = (list: string, type: Option) => Object.fromEntries(list.split(' ').map((n) => [n, type]));

export const GLOBAL_OPTIONS: Options = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  json: bool,
  'data-dir': str,
  runtime: str,
  image: str,
};

const MODEL = names('model base-url api-key model-path model-timeout extra-body checkpoint', str);

export const COMMAND_OPTIONS: Record<string, Options> = {
  help: {},
  env: { ...names('name language test-command report test-paths ref', str), all: bool },
  synth: names('env n strategy operators workers seed hint visibility out reference-runs candidate-runs model base-url api-key issue-model', str),
  task: names('env format out tasks', str),
  eval: { ...MODEL, ...names('env format k n out seed tasks trajectories workers max-steps', str) },
  solve: { ...MODEL, ...names('repo issue out seed test-command report max-steps', str), apply: bool, force: bool },
  train: {
    ...names('run curriculum envs held-out families steps budget batch group track extend advantage credit lr epochs learn workers seed target eval-tasks eval-every time-limit', str),
    fresh: bool,
  },
};

export interface ParsedArgs {
  command: string | undefined;
  positionals: string[];
  flags: Record<string, string | boolean | undefined>;
}

/** `--n -3`: a negative number after a flag that takes a value is that value, not another flag. */
function joinNegativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.startsWith('--') ? a.slice(2) : null;
    if (name && options[name]?.type === 'string' && /^-\d/.test(argv[i + 1] ?? '')) out.push(`${a}=${argv[++i]}`);
    else out.push(a);
  }
  return out;
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
  return known.map((k) => ({ k, d: distance(name, k) })).filter((x) => x.d <= 2).sort((a, b) => a.d - b.d)[0]?.k;
}

/** The command and its flags; a UserError (with the command named) for anything its usage does not allow. */
export function parseCommandLine(argv: string[]): ParsedArgs {
  const all: Options = Object.assign({}, GLOBAL_OPTIONS, ...Object.values(COMMAND_OPTIONS));
  const loose = parseArgs({ args: joinNegativeValues(argv, all), options: all, allowPositionals: true, strict: false });
  const command = loose.positionals[0];
  const own = command !== undefined ? COMMAND_OPTIONS[command] : {};
  if (!own) return { command, positionals: loose.positionals.slice(1), flags: {} };
  const options = { ...GLOBAL_OPTIONS, ...own };
  const where = command ? `frognano ${command}` : 'frognano';
  const args = joinNegativeValues(argv, options);
  for (const a of args) {
    if (!a.startsWith('-') || a === '--') continue;
    const name = a.startsWith('--') ? a.slice(2).split('=')[0]! : a.slice(1);
    const known = a.startsWith('--') ? name in options : Object.values(options).some((o) => o.short === name);
    if (!known) {
      const near = closest(name, Object.keys(options));
      const elsewhere = Object.entries(COMMAND_OPTIONS).filter(([, o]) => name in o).map(([c]) => c);
      const hint = near ? `did you mean --${near}?` : elsewhere.length ? `--${name} belongs to ${elsewhere.map((c) => `frognano ${c}`).join(', ')}` : undefined;
      throw new UserError(`${where}: unknown option ${a.startsWith('--') ? '--' : '-'}${name}`, hint);
    }
  }
  try {
    const parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { command, positionals: parsed.positionals.slice(1), flags: parsed.values };
  } catch (err) {
    const missing = /Option '(-\w, )?--([\w-]+) <value>' argument missing/.exec((err as Error).message);
    if (missing) throw new UserError(`${where}: --${missing[2]} needs a value`, `write --${missing[2]} VALUE (a value starting with a dash as --${missing[2]}=VALUE)`);
    const boolValue = /Option '(-\w, )?--([\w-]+)' does not take an argument/.exec((err as Error).message);
    if (boolValue) throw new UserError(`${where}: --${boolValue[2]} takes no value`, `write --${boolValue[2]} alone`);
    throw new UserError(`${where}: ${(err as Error).message}`);
  }
}
