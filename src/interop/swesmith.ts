// SWE-smith exports named the way its harness resolves them (read in
// SWE-smith v0.0.9, profiles/base.py; docs/exports.md): per environment, a
// git repository to push as the mirror `<org>/frognano__<env>.<commit8>`,
// whose `main` is the clean state and whose branch per instance holds the bug
// ("Bug Patch") and then the failing tests removed ("Remove F2P Tests"), as
// SWE-smith's evaluation steps back one commit to restore them; records with
// SWE-smith's instance ids, repository names and image names; and
// frognano_profiles.py, the repository profiles its harness needs, to import
// before it runs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentSpec } from '../env/spec.js';
import { testPathsInUse } from '../grading/tests/project.js';
import { toSweSmith } from '../task/formats.js';
import type { Task } from '../task/task.js';
import { matchesAny } from '../util/glob.js';
import { jsonLines } from '../util/json-lines.js';
import type { ExportContext } from './harbor.js';
import { baseImageLines, setupLines } from './image.js';
import { brokenTrees, type EnvRepo, EnvRepos, type EnvironmentOf } from './env-repo.js';
import { dropLine, dropRecordCommand, envLines, readerLines, testLine } from './test-lines.js';

/** The owner part of every name: SWE-smith's names are `<owner>__<repo>.<commit8>`. */
export const SWESMITH_OWNER = 'frognano';

export interface SweSmithNames {
  /** The profile's repo_name, also the records' `repo`. */
  repoName: string;
  instanceId: string;
  /** swebench/swesmith.<arch>.<owner>_1776_<repo>.<commit8>, lower case. */
  image: string;
}

export function sweSmithNames(t: Task, cleanCommit: string): SweSmithNames {
  const repoName = `${SWESMITH_OWNER}__${t.env.name}.${cleanCommit.slice(0, 8)}`;
  // Our ids are <env>.<strategy>__<hash>: the part after the environment has no dot, as SWE-smith needs.
  const suffix = t.id.startsWith(`${t.env.name}.`) ? t.id.slice(t.env.name.length + 1) : t.id.replaceAll('.', '_');
  return {
    repoName,
    instanceId: `${repoName}.${suffix.replaceAll('.', '_')}`,
    image: `swebench/swesmith.x86_64.${SWESMITH_OWNER}_1776_${t.env.name}.${cleanCommit.slice(0, 8)}`.toLowerCase(),
  };
}

/** One task: its two-commit branch in the environment's repository, and its record. */
export async function writeSweSmithTask(
  t: Task,
  repo: EnvRepo,
  ctx: ExportContext,
): Promise<{ record: Record<string, unknown>; testFiles: [string[], string[]] }> {
  const names = sweSmithNames(t, repo.clean);
  const { full, cut } = await brokenTrees(t, repo, ctx);
  await repo.branch(names.instanceId, [
    { tree: full, message: 'Bug Patch' },
    { tree: cut, message: 'Remove F2P Tests' },
  ]);
  const f2pFiles = (await repo.changedFiles(full, cut)).map((f) => f.path);
  const p2pFiles = [...testPathsInUse(ctx.built.snapshot, t.env.spec)].filter((f) => matchesAny(f, t.env.spec.testPaths) && !f2pFiles.includes(f)).sort();
  const rec = toSweSmith(t);
  return { record: { ...rec, instance_id: names.instanceId, repo: names.repoName, image_name: names.image }, testFiles: [f2pFiles, p2pFiles] };
}

/**
 * The test command of an environment's profile: what the verifier drops from
 * the prediction put back as the checked-out commit has it (hidden files of
 * every instance of the environment count as tests), then the run, printing
 * "[PASSED] id" lines.
 */
export function sweSmithTestCmd(spec: EnvironmentSpec, hidden: readonly string[] = []): string {
  return ['cd /testbed', dropLine(spec, hidden, 'HEAD', '/testbed'), ...readerLines(), ...envLines(spec), testLine(spec, '/testbed')].join('\n');
}

function pyString(s: string): string {
  return JSON.stringify(s); // a JSON string is a Python string literal
}

/** One environment of the export: a task of it (its spec), its clean commit, and the hidden files of all its instances. */
export interface SweSmithEnv {
  t: Task;
  clean: string;
  hidden?: string[];
}

/** A profile's Dockerfile: the mirror cloned, the setup steps, then the drop step's record of the built state. */
export function sweSmithDockerfile(spec: EnvironmentSpec): string {
  return [
    ...baseImageLines(spec, ['git']),
    'RUN git clone {mirror_url} /testbed',
    'WORKDIR /testbed',
    ...setupLines(spec),
    `RUN ${dropRecordCommand('/testbed')}`,
    '',
  ].join('\n');
}

/** The profiles module: one class per environment, registered with SWE-smith's registry on import. */
export function profilesModule(envs: SweSmithEnv[], testFiles: Record<string, [string[], string[]]>): string {
  const classes = envs.map(({ t, clean, hidden }, i) => {
    const spec = t.env.spec;
    const python = spec.language === 'python';
    const testCmd = sweSmithTestCmd(spec, hidden ?? t.hiddenFiles);
    const docker = sweSmithDockerfile(spec);
    return `@dataclass
class FrogNano${i}(${python ? 'PythonProfile' : 'JavaScriptProfile'}):
    """${t.env.name} at ${clean.slice(0, 8)}: ${spec.language}, its test command printing "[PASSED] id" lines."""

    owner: str = ${pyString(SWESMITH_OWNER)}
    repo: str = ${pyString(t.env.name)}
    commit: str = ${pyString(clean)}
    org_gh: str = os.environ.get("FROGNANO_SWESMITH_ORG", "swesmith")
    test_cmd: str = ${pyString(testCmd)}

    def log_parser(self, log):
        return _statuses(log)

    def get_test_files(self, instance):
        return tuple(TEST_FILES.get(instance["instance_id"], ([], [])))

    def get_test_cmd(self, instance, f2p_only=False):
        return self.test_cmd, []

    @property
    def dockerfile(self):
        return ${pyString(docker)}.replace("{mirror_url}", self.mirror_url)
`;
  });
  return `"""SWE-smith repository profiles for environments FrogNano exported
(frognano task export --format swesmith). Import this module before
SWE-smith's harness runs: it registers one profile per environment.
Written by FrogNano; set FROGNANO_SWESMITH_ORG to the GitHub organization
holding the mirrors (repos/ in this export)."""
import os
import re
from dataclasses import dataclass

from swesmith.profiles.base import registry
from swesmith.profiles.javascript import JavaScriptProfile
from swesmith.profiles.python import PythonProfile

# instance id -> [files of the failing tests, files of the others]
TEST_FILES = ${JSON.stringify(testFiles)}


def _statuses(log):
    return {m.group(2).strip(): m.group(1) for m in re.finditer(r"^\\[(PASSED|FAILED)\\]\\s(.+)$", log, re.M)}


${classes.join('\n\n')}

for _profile in (${envs.map((_, i) => `FrogNano${i}`).join(', ')},):
    registry.register_profile(_profile)
`;
}

/** The export's files beside the repositories: the records and the profiles module. */
export function writeSweSmithFiles(
  root: string,
  records: Record<string, unknown>[],
  envs: SweSmithEnv[],
  testFiles: Record<string, [string[], string[]]>,
): void {
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'instances.jsonl'), jsonLines(records));
  writeFileSync(join(root, 'frognano_profiles.py'), profilesModule(envs, testFiles));
}

/** The whole directory: the mirrors to push, instances.jsonl and the profiles module. */
export async function exportSweSmithDir(out: string, tasks: readonly Task[], envOf: EnvironmentOf, progress: (i: number, t: Task) => void): Promise<void> {
  const repos = new EnvRepos(join(out, 'repos'));
  const records: Record<string, unknown>[] = [];
  const testFiles: Record<string, [string[], string[]]> = {};
  const hidden = new Map<EnvRepo, Set<string>>();
  for (const [i, t] of tasks.entries()) {
    progress(i, t);
    const ctx = await envOf(t);
    const repo = await repos.get(t, ctx);
    const { record, testFiles: files } = await writeSweSmithTask(t, repo, ctx);
    records.push(record);
    testFiles[String(record.instance_id)] = files;
    hidden.set(repo, new Set([...(hidden.get(repo) ?? []), ...t.hiddenFiles]));
  }
  writeSweSmithFiles(
    out,
    records,
    repos.list().map(({ repo, task }) => ({ t: task, clean: repo.clean, hidden: [...(hidden.get(repo) ?? [])] })),
    testFiles,
  );
}
