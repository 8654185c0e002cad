// SWE-bench exports the harness runs (docs/exports.md): for swebench 5, whose
// rows carry their own image, eval script and log parser, a task repository
// (sweb.yaml, tasks/<id>/{task.yaml, tests.json, problem_statement.md,
// gold.patch, test.patch, eval.sh, Dockerfile}) and the same rows as
// instances.jsonl. Each environment becomes a git repository with real
// commits: its clean state (environment_setup_commit) and, on a branch named
// after each task, the broken state without the task's failing tests
// (base_commit); test.patch brings those tests back, as in SWE-bench, where
// the failing tests arrive with the test patch. Nothing is fetched from
// GitHub: each task's image is built from a git bundle of its branch.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { toSweBench } from '../task/formats.js';
import type { Task } from '../task/task.js';
import { git } from '../util/git.js';
import { jsonLines } from '../util/json-lines.js';
import { shellQuote } from '../util/shell.js';
import { brokenTrees, type EnvRepo, EnvRepos, type EnvironmentOf } from './env-repo.js';
import type { ExportContext } from './harbor.js';
import { baseImageLines, setupLines } from './image.js';
import { DROP_STATE, dropLine, dropRecordCommand, envLines, outputTailLine, readerLines, testLine } from './test-lines.js';

/** The dataset the task repository lists its tasks under (sweb.yaml). */
export const SWEBENCH_DATASET = 'frognano/tasks';
/** swebench's parser for "[PASSED] id" / "[FAILED] id" lines: ids with spaces survive it. */
const LOG_PARSER = 'parse_log_jest_json';

/** swebench's image name for an instance (swebench/task/checks.py expected_image). */
export function swebenchImage(id: string): string {
  return `swebench/sweb.eval.x86_64.${id.replaceAll('__', '_1776_')}:latest`.toLowerCase();
}

/** The instance's base commit (the cut tree on the clean commit, on a branch named after the task) and its test patch. */
async function states(t: Task, repo: EnvRepo, ctx: ExportContext): Promise<{ base: string; testPatch: string }> {
  const { full, cut } = await brokenTrees(t, repo, ctx);
  const base = await repo.branch(t.id, [{ tree: cut, message: `broken: ${t.id} (its failing tests come with test.patch)` }]);
  return { base, testPatch: await repo.diff(base, full) };
}

function evalScript(t: Task, base: string, testPatch: string): string {
  return [
    '#!/bin/bash',
    'set -uxo pipefail',
    'cd /testbed',
    // What the verifier drops from a change (tests, runner configuration, links...), as the base commit has it.
    dropLine(t.env.spec, t.hiddenFiles, base, '/testbed'),
    // Then the failing tests from the test patch, with the image's own copy of the repository (the work tree's .git is the prediction's to change).
    ...(testPatch
      ? [`git --git-dir=${DROP_STATE}/git --work-tree=/testbed apply -v - <<'EOF_FROGNANO_TEST_PATCH'`, testPatch.replace(/\n$/, ''), 'EOF_FROGNANO_TEST_PATCH']
      : []),
    ...readerLines(),
    ...envLines(t.env.spec),
    "echo '>>>>> Start Test Output'",
    // The last line before the end marker: swebench records its exit code, the runner's.
    testLine(t.env.spec, '/testbed'),
    "echo '>>>>> End Test Output'",
    outputTailLine(),
    '',
  ].join('\n');
}

/** The image: the bundle cloned at the base commit, the setup steps, then the drop step's record of the built state. */
function dockerfile(t: Task, base: string): string {
  return [
    ...baseImageLines(t.env.spec, ['git', 'patch']),
    'COPY repo.bundle /tmp/repo.bundle',
    `RUN git clone -q /tmp/repo.bundle /testbed && git -C /testbed checkout -q -B main ${base} && rm /tmp/repo.bundle`,
    'WORKDIR /testbed',
    ...setupLines(t.env.spec),
    // What setup installs stays out of git's view: the harness cleans untracked files between patch attempts.
    ...(t.env.spec.layer.length ? [`RUN printf '%s\\n' ${t.env.spec.layer.map(shellQuote).join(' ')} >> .git/info/exclude`] : []),
    `RUN ${dropRecordCommand('/testbed')}`,
    '',
  ].join('\n');
}

/** swebench reads these with yaml.safe_load; strings double-quoted so no value turns into a number or date. */
const yaml = (fields: Record<string, string | string[]>) => stringify(fields, { defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' });

/** One task into the task repository and its environment's git repository; returns its row. */
export async function writeSweBenchTask(root: string, t: Task, repo: EnvRepo, ctx: ExportContext): Promise<Record<string, unknown>> {
  const { base, testPatch } = await states(t, repo, ctx);
  const row = {
    ...toSweBench(t),
    repo: `frognano/${t.env.name}`,
    base_commit: base,
    environment_setup_commit: repo.clean,
    test_patch: testPatch,
    version: t.env.hash.slice(0, 12),
    image: swebenchImage(t.id),
    eval_script: evalScript(t, base, testPatch),
    log_parser: LOG_PARSER,
    eval_type: 'pass_and_fail',
  };
  const dir = join(root, 'tasks', t.id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'task.yaml'),
    yaml({
      instance_id: t.id,
      repo: row.repo,
      version: row.version,
      base_commit: base,
      environment_setup_commit: repo.clean,
      created_at: t.stats.createdAt,
      split: 'test',
      datasets: [SWEBENCH_DATASET],
      image: row.image,
      log_parser: LOG_PARSER,
      eval_type: 'pass_and_fail',
    }),
  );
  writeFileSync(join(dir, 'tests.json'), `${JSON.stringify({ FAIL_TO_PASS: t.FAIL_TO_PASS, PASS_TO_PASS: t.PASS_TO_PASS }, null, 1)}\n`);
  writeFileSync(join(dir, 'problem_statement.md'), t.instruction);
  writeFileSync(join(dir, 'gold.patch'), t.fixPatch);
  writeFileSync(join(dir, 'test.patch'), testPatch);
  writeFileSync(join(dir, 'eval.sh'), row.eval_script);
  writeFileSync(join(dir, 'Dockerfile'), dockerfile(t, base));
  await git(['bundle', 'create', '-q', join(dir, 'repo.bundle'), t.id], { cwd: repo.dir });
  return row;
}

/** The task repository's own file. */
export function writeSweYaml(root: string): void {
  writeFileSync(join(root, 'sweb.yaml'), yaml({ datasets: [SWEBENCH_DATASET], splits: ['test'] }));
}

/** The whole directory: the task repository, instances.jsonl and the environments' repositories. */
export async function exportSweBenchDir(out: string, tasks: readonly Task[], envOf: EnvironmentOf, progress: (i: number, t: Task) => void): Promise<void> {
  mkdirSync(out, { recursive: true });
  writeSweYaml(out);
  const repos = new EnvRepos(join(out, 'repos'));
  const rows: Record<string, unknown>[] = [];
  for (const [i, t] of tasks.entries()) {
    progress(i, t);
    const ctx = await envOf(t);
    rows.push(await writeSweBenchTask(out, t, await repos.get(t, ctx), ctx));
  }
  writeFileSync(join(out, 'instances.jsonl'), jsonLines(rows));
}
