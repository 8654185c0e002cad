// `frognano solve`: the agent works on a user's own repository. The repository
// is copied into a sandboxed workspace (dependency folders such as
// node_modules are mounted read-only, never copied), the model acts there
// through the harness, and the resulting diff is printed. Nothing the model
// writes runs on the host: commands run in the workspace's runtime, and the
// user's repository changes only with --apply (git apply, all or nothing).
// A repository whose tests cannot be found or run is refused before the agent
// starts, unless --allow-unchecked: every change is checked, or says it is not.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { DEFAULT_AGENT_LIMITS } from '../agent/limits.js';
import { runAgent, type StepInfo } from '../agent/loop.js';
import { agentTestCommand } from '../grading/testrun.js';
import { selectRuntime } from '../runtime/select.js';
import { intFlag, stringFlag } from './flags.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { git } from '../util/git.js';
import { dataDir } from '../util/paths.js';
import { ChangeRefused } from '../workspace/scan.js';
import { Workspace } from '../workspace/workspace.js';
import type { CliContext } from './context.js';
import { modelFactory, MODELS_HELP } from './models.js';
import { compareRuns, madeWorse } from '../grading/compare.js';
import { describeRun, repoTests, runRepoTests, uncheckedWhy, verdictLines } from './solve-tests.js';

export const SOLVE_HELP = `Usage: frognano solve --repo <path> --issue <text|file> --model M [options]

Runs the agent on your repository: a copy of it in a sandboxed workspace (the
model's commands never run on this host), then prints the diff and checks it:
the repository's tests run in the sandbox before and after the change, and
solve prints which tests now pass and which now fail. Your repository
changes only with --apply.

A repository whose tests cannot be found (and no --test-command), or whose
tests do not complete before any change, is refused before the agent runs:
pass --test-command, or --allow-unchecked to let the agent work with no check.

Exit code 0 when the agent made a change that breaks no passing test (with
--allow-unchecked and no tests to run: any change, unchecked, as the verdict
says); 1 when it made no change, or its change breaks tests (or they no
longer complete), or --apply could not apply it; 2 for a usage error or a
refused repository.

  --repo PATH            the repository (a git repository or a plain directory)
  --issue TEXT|FILE      what to fix or build: a file's path (read when it exists), else the
                         text itself; a value with no spaces that has a path separator or ends
                         in a file extension (issue.md, notes/bug.txt) names a file, and is an
                         error when there is none
  --test-command "CMD"   how to run the tests (told to the agent; found as env add finds
                         them when absent)
  --report FMT           tap, junit or jest-json: how to read --test-command's output per
                         test (without it the check uses the command's exit status)
  --allow-unchecked      let the agent work when the tests cannot be found or do not
                         complete; its change is then not checked
  --apply                apply the diff to the repository (git apply; all or nothing);
                         refused when the change breaks a passing test
  --force                with --apply: apply even a change that breaks tests
  --max-steps N          model turns at most (default ${DEFAULT_AGENT_LIMITS.maxSteps}, as in eval and training)
  --out FILE             where to save the diff (default <data-dir>/solve/<repo>-<time>.patch)
  --seed S               seed for the model (default 0)

Dependency folders (node_modules, .venv, venv, .pydeps) are mounted read-only
in the bwrap and docker runtimes; the local runtime does not mount them.

${MODELS_HELP}`;

/** Dependency folders shown read-only to the workspace instead of copied into it. */
const LAYER_DIRS = ['node_modules', '.venv', 'venv', '.pydeps'];
const NEVER_COPIED = new Set(['.git', '__pycache__', '.pytest_cache', '.mypy_cache', '.frognano']);

/** A copy of the repository without version control, caches, dependency folders or the data directory. */
function snapshotOf(repo: string, dest: string, skip: string): { rel: string; host: string }[] {
  const layers = LAYER_DIRS.filter((d) => existsSync(join(repo, d))).map((rel) => ({ rel, host: realpathSync(join(repo, rel)) }));
  cpSync(repo, dest, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => {
      const rel = relative(repo, src);
      if (rel === '') return true;
      if (src === skip) return false;
      if (rel.split(sep).some((p) => NEVER_COPIED.has(p))) return false;
      return !layers.some((l) => rel === l.rel);
    },
  });
  return layers;
}

/** An --issue value that names a file rather than being the text: one word with a path separator or a file extension. */
const NAMES_A_FILE = /^(?=\S+$)(?:.*[/\\].*|.*\.[A-Za-z][A-Za-z0-9]{0,7})$/;

function readIssue(issue: string): string {
  let text = issue;
  if (existsSync(issue)) {
    if (!statSync(issue).isFile()) throw new UserError(`--issue ${issue} is a directory`, 'pass the issue text, or the file holding it');
    text = readFileSync(issue, 'utf8');
  } else if (NAMES_A_FILE.test(issue)) {
    throw new UserError(`--issue ${issue}: no such file (${resolve(issue)})`, 'pass an existing file, or the issue text itself (a sentence, with spaces)');
  }
  if (!text.trim()) throw new UserError('the issue is empty', 'pass --issue "what to fix" or --issue FILE');
  return text.trim();
}

function describeStep(s: StepInfo): string {
  const calls = s.turn.message.tool_calls ?? [];
  const parts = calls.map((c) => {
    let args: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(c.function.arguments);
      if (isRecord(parsed)) args = parsed;
    } catch {
      /* shown by name only */
    }
    const what = args.file_path ?? args.command ?? args.pattern ?? '';
    return `${c.function.name}${what ? ` ${String(what).split('\n')[0]!.slice(0, 60)}` : ''}`;
  });
  return `step ${s.step} (${(s.elapsedMs / 1000).toFixed(1)} s): ${parts.join(' | ') || 'no action'}`;
}

/**
 * The arguments of git apply for the repository: run in it, paths taken from
 * the directory we copied. Inside a larger git work tree git reads patch paths
 * from the top level (and skips others silently), hence --directory; outside
 * git, git apply writes the files like patch(1).
 */
async function applyArgs(repo: string): Promise<string[]> {
  let prefix = '';
  try {
    prefix = (await git(['rev-parse', '--show-prefix'], { cwd: repo })).trim().replace(/\/$/, '');
  } catch {
    /* not inside a git work tree */
  }
  return ['apply', '--whitespace=nowarn', ...(prefix ? [`--directory=${prefix}`] : [])];
}

function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Why solve will not let the agent change a repository no test can check, and the flags that change that. */
function refused(why: string, testCommand: string | undefined): UserError {
  return new UserError(
    `nothing can check a change: ${why}`,
    `${testCommand ? 'fix --test-command (or add --report tap|junit|jest-json)' : 'pass --test-command "CMD", the command that runs its tests'}, or --allow-unchecked to let the agent change it with no check`,
  );
}

export async function solveCommand(ctx: CliContext): Promise<number> {
  const f = ctx.flags;
  const repoFlag = stringFlag(f, 'repo');
  const issueFlag = stringFlag(f, 'issue');
  if (!repoFlag) throw new UserError('solve needs --repo', 'pass --repo PATH, the repository to work on');
  if (!issueFlag) throw new UserError('solve needs --issue', 'pass --issue "what to fix" or --issue FILE');
  const given = resolve(repoFlag);
  if (!existsSync(given) || !statSync(given).isDirectory()) throw new UserError(`--repo ${repoFlag} is not a directory`, 'pass the path of your repository');
  const repo = realpathSync(given);
  const issue = readIssue(issueFlag);
  const seed = intFlag(f.seed, '--seed', 0, 0);
  const maxSteps = intFlag(f['max-steps'], '--max-steps', DEFAULT_AGENT_LIMITS.maxSteps, 1);
  const dir = dataDir(stringFlag(f, 'data-dir'));
  const testCommand = stringFlag(f, 'test-command');
  const tests = repoTests(repo, testCommand, stringFlag(f, 'report'));
  const unchecked = 'unavailable' in tests ? tests.unavailable : undefined;
  if (unchecked && !f['allow-unchecked']) throw refused(unchecked, testCommand);
  const models = await modelFactory(f);
  const image = stringFlag(f, 'image');
  const runtime = selectRuntime({ name: stringFlag(f, 'runtime') ?? 'auto', ...(image ? { image } : {}), warn: ctx.err });
  const log = (line: string) => (f.json ? undefined : ctx.err(line));
  const tmp = mkdtempSync(join(dir, 'solve-'));
  let ws: Workspace | undefined;
  try {
    const model = await models.forEpisode({ seed });
    const layers = snapshotOf(repo, join(tmp, 'repo'), realpathSync(dir));
    // The agent's workspace and the test runs before and after its change are made alike from the copy.
    const place = { snapshot: join(tmp, 'repo'), layers, runtime, baseDir: join(dir, 'tmp') };
    log(`solve: ${models.name} on a copy of ${repo} (${runtime.name} runtime${runtime.isolated ? '' : ', NOT isolated'})`);
    if (unchecked) log(`tests: none to run, so the change will not be checked (--allow-unchecked): ${unchecked}`);
    const before = await runRepoTests(tests, place);
    if (before) log(`tests before the change: ${describeRun(before)}`);
    if (before && before.outcome !== 'completed' && !f['allow-unchecked'])
      throw refused(`the tests of ${repo} do not complete before any change: ${before.reason ?? before.outcome}`, testCommand);
    ws = await Workspace.create(place);
    const workdir = ws.runtime.workdir(ws.mounts);
    const shown = testCommand ?? ('spec' in tests ? agentTestCommand(tests.spec, ws) : undefined);
    const instruction = `${issue}\n\nThe repository is at ${workdir} .${shown ? ` Run the tests with:\n    ${shown}\n` : '\n'}`;
    const env = 'spec' in tests ? tests.spec.test.env : undefined;
    ws.keepSandbox(); // one sandbox for the agent's commands
    const res = await runAgent({
      model,
      workspace: ws,
      instruction,
      toolset: 'leaf',
      limits: { maxSteps },
      ...(env ? { env } : {}),
      onStep: (s) => log(describeStep(s)),
    });
    log(`stopped: ${res.stopReason} after ${res.steps} step(s)${res.error ? `: ${res.error}` : ''}`);
    let diff: string;
    try {
      diff = await ws.diff();
    } catch (err) {
      if (!(err instanceof ChangeRefused)) throw err;
      throw new UserError(`the agent's change cannot be read safely: ${err.message}`, 'nothing was applied; rerun, or inspect the agent’s steps above');
    }
    if (!diff.trim()) {
      if (f.json) ctx.out(JSON.stringify({ repo, model: models.name, stopReason: res.stopReason, steps: res.steps, diff: '', applied: false }, null, 2));
      else ctx.out('No changes: the agent produced no diff.');
      return 1;
    }
    const out = resolve(stringFlag(f, 'out') ?? join(dir, 'solve', `${basename(repo)}-${new Date().toISOString().replace(/[:.]/g, '-')}.patch`));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, diff);
    // Compared only against a run that completed: a suite that crashed or timed out before the change says nothing of it.
    const checked = before?.outcome === 'completed' ? before : null;
    const after = checked && (await runRepoTests(tests, place, diff));
    const comparison = checked && after ? compareRuns(checked, after) : null;
    const worse = comparison !== null && madeWorse(comparison);
    const args = await applyArgs(repo);
    let applied = false;
    let applyError: string | undefined;
    if (f.apply && worse && !f.force) {
      applyError = 'the change breaks passing tests (see above); pass --force to apply it anyway';
    } else if (f.apply) {
      try {
        await git([...args, '-'], { cwd: repo, input: diff });
        applied = true;
      } catch (err) {
        applyError = errorMessage(err);
      }
    }
    if (f.json) {
      const check = comparison ? { ...comparison, worse } : { unavailable: uncheckedWhy(tests, before) };
      ctx.out(
        JSON.stringify(
          {
            repo,
            model: models.name,
            stopReason: res.stopReason,
            steps: res.steps,
            diff,
            patchFile: out,
            tests: check,
            applied,
            ...(applyError ? { applyError } : {}),
          },
          null,
          2,
        ),
      );
    } else {
      ctx.out(diff.trimEnd());
      ctx.out('');
      if (comparison) {
        ctx.out(`tests with the change: ${describeRun(after!)}`);
        for (const line of verdictLines(comparison)) ctx.out(`  ${line}`);
        ctx.out(
          worse
            ? 'verdict: the change makes the tests WORSE'
            : comparison.fixed.length
              ? 'verdict: the change fixes tests and breaks none'
              : 'verdict: the change breaks no passing test (and fixes none)',
        );
      } else ctx.out(`verdict: unchecked (${uncheckedWhy(tests, before)})`);
      ctx.out(`diff saved to ${out}`);
      if (applied) ctx.out(`applied to ${repo}`);
      else if (applyError) ctx.err(`could not apply the diff to ${repo} (nothing was changed): ${applyError}`);
      else
        ctx.out(
          `${repo} is unchanged. To apply: rerun with --apply, or run: git -C ${[repo, ...args.filter((a) => a !== '--whitespace=nowarn'), out].map(shellWord).join(' ')}`,
        );
    }
    return applyError || worse ? 1 : 0;
  } finally {
    ws?.dispose();
    rmSync(tmp, { recursive: true, force: true });
    await models.close();
  }
}
