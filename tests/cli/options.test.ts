import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/cli.js';
import { COMMAND_OPTIONS, parseCommandLine } from '../../src/cli/options.js';
import { UserError } from '../../src/util/errors.js';

describe('command-line flags', () => {
  it('parses each command with its own flags, negative numbers as values', () => {
    const p = parseCommandLine(['train', '--track', 'all', '--extend', '4', '--seed', '-3', '--fresh']);
    assert.equal(p.command, 'train');
    assert.deepEqual([p.flags.track, p.flags.extend, p.flags.seed, p.flags.fresh], ['all', '4', '-3', true]);
    const s = parseCommandLine(['--data-dir', 'd', 'synth', '--env', 'all', '--n=5']);
    assert.equal(s.command, 'synth');
    assert.deepEqual([s.flags['data-dir'], s.flags.env, s.flags.n], ['d', 'all', '5']);
    // Values that start with a dash, a lone dash, what follows --, grouped short flags, a flag value that names a command.
    assert.equal(parseCommandLine(['solve', '--issue', '-v crashes']).flags.issue, '-v crashes');
    assert.equal(parseCommandLine(['train', '--lr', '-.5']).flags.lr, '-.5');
    assert.deepEqual(parseCommandLine(['task', 'import', '-']).positionals, ['import', '-']);
    assert.deepEqual(parseCommandLine(['env', 'add', '--', '-dir']).positionals, ['add', '-dir']);
    assert.deepEqual({ ...parseCommandLine(['-hv']).flags }, { help: true, version: true });
    const r = parseCommandLine(['--run', 'eval', 'train', '--steps', '2']);
    assert.deepEqual([r.command, r.flags.run, r.flags.steps], ['train', 'eval', '2']);
  });

  it('refuses flags the command does not take, naming the command, a near flag, or the command that takes it', () => {
    const refused = (args: string[], message: RegExp, hint?: RegExp) =>
      assert.throws(
        () => parseCommandLine(args),
        (e: Error) => e instanceof UserError && message.test(e.message) && (!hint || hint.test(e.hint ?? '')),
      );
    refused(['train', '--budgt', '3'], /^frognano train: unknown option --budgt$/, /did you mean --budget\?/);
    refused(['eval', '--apply'], /^frognano eval: unknown option --apply$/, /belongs to frognano solve/);
    refused(['train', '--steps'], /^frognano train: --steps needs a value$/);
    refused(['solve', '--apply=yes'], /^frognano solve: --apply takes no value$/);
    refused(['synth', '-x'], /^frognano synth: unknown option -x$/);
  });

  it('prints a usage error with the command, the fix and its usage line, and exits 2', async () => {
    const r = await runCli(['synth', '--env', 'all', '--n', '-3']);
    assert.equal(r.code, 2);
    assert.equal(r.err.split('\n')[0], 'frognano synth: --n must be an integer >= 1, got "-3"');
    assert.match(r.err, /^Usage: frognano synth --env/m);
    assert.match(r.err, /frognano synth --help lists every option/);
    const named = await runCli(['--run', 'toString', 'train', '--bogus']);
    assert.equal(named.err.split('\n')[0], 'frognano train: unknown option --bogus', 'the parsed command, not a flag value that looks like one');
    assert.match((await runCli(['--run', 'eval', 'train', '--bogus'])).err, /^Usage: frognano train/m);
    assert.match((await runCli(['env', 'add', '--bogus'])).err, /^Usage: frognano env add/m);
    const env = await runCli(['env', 'add']);
    assert.match(env.err, /^Usage: frognano env add <path\|git-url>/m, 'a subcommand shows its own usage line');
  });

  it("lists in each command's help every flag the command takes", async () => {
    for (const [command, options] of Object.entries(COMMAND_OPTIONS)) {
      if (command === 'help') continue;
      const help = (await runCli([command, '--help'])).out;
      for (const name of Object.keys(options)) assert.match(help, new RegExp(`--${name}\\b`), `frognano ${command} --help names --${name}`);
    }
  });
});
