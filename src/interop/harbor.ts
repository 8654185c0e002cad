// Harbor task directories (docs/exports.md): instruction.md, task.toml,
// environment/ (a Dockerfile and the agent's view of the broken repository),
// tests/ (test.sh, FrogNano's grader and the broken state it grades from),
// solution/ (the reference fix as files). The image needs nothing the
// environment's language does not bring, except Python for the grader on
// JavaScript images; the bug is already in the copied files, so no git or
// patch runs at build or grading time.
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stringify } from 'smol-toml';
import type { BuiltEnv } from '../env/build.js';
import { envWorkspace } from '../env/workspace.js';
import { agentWorkspace } from '../grading/agent-view.js';
import type { Runtime } from '../runtime/types.js';
import { referenceFiles } from '../task/reference.js';
import { taskFromJSON } from '../task/io.js';
import type { Task } from '../task/task.js';
import { isRecord } from '../util/guards.js';
import { globToRegExp } from '../util/glob.js';
import { exportAssetsDir } from '../util/paths.js';
import { shellQuote } from '../util/shell.js';
import { RUNNER_FILES } from '../verifier/changes.js';
import { forgingRuleSources } from '../verifier/forging.js';
import { verifyTimeoutSec } from '../verifier/verify.js';
import { MAX_CHANGE_BYTES } from '../workspace/workspace.js';
import { baseImageLines, setupLines } from './image.js';

/** Harbor's task model as read (docs/exports.md names the copy and commit); its default schema version. */
export const HARBOR_SCHEMA_VERSION = '1.4';
/** Where the repository lives in the image, as in FrogNano's own sandbox. */
const WORKDIR = '/workspace';

export interface ExportContext {
  built: BuiltEnv;
  runtime: Runtime;
  dataDir: string;
}

/** A task's directory name: Harbor's task names allow letters, digits, '.', '_' and '-'. */
export function harborName(id: string): string {
  return id.replace(/[^A-Za-z0-9._-]/g, '_').replace(/\.{2,}/g, '.');
}

function taskToml(t: Task): string {
  const spec = t.env.spec;
  return stringify({
    schema_version: HARBOR_SCHEMA_VERSION,
    source: 'frognano',
    task: {
      name: `frognano/${harborName(t.id)}`,
      description: `A ${spec.language} bug in ${spec.name}, synthesized by FrogNano (${t.provenance.strategy})`,
      keywords: ['frognano', spec.language, t.provenance.strategy],
    },
    metadata: {
      frognano_task: t.id,
      environment: t.env.name,
      environment_hash: t.env.hash,
      bugs: t.knobs.bugs,
      hint: t.knobs.hint,
      visibility: t.knobs.visibility,
    },
    // The grader rebuilds and re-runs the suite: the spec's limit plus room for the copy.
    verifier: { timeout_sec: spec.timeoutSec * 2 + 60, user: 'root' },
    agent: { timeout_sec: 1800 },
    environment: { build_timeout_sec: 900, network_mode: 'no-network', workdir: WORKDIR },
  });
}

function dockerfile(t: Task): string {
  const lines = [
    ...baseImageLines(t.env.spec, []),
    `WORKDIR ${WORKDIR}`,
    // The agent's view: the broken state, hidden test files removed, held-back tests cut.
    `COPY repo/ ${WORKDIR}/`,
    ...setupLines(t.env.spec),
  ];
  return `${lines.join('\n')}\n`;
}

/** What the grader reads: the task's tests and the verifier's rules, as regular expressions it can run. */
function graderConfig(t: Task): Record<string, unknown> {
  const spec = t.env.spec;
  const layout = t.grading ?? { files: [], twins: [], renamed: {}, copies: [], relocate: false, repeats: [], words: [] };
  return {
    instance_id: t.id,
    FAIL_TO_PASS: t.FAIL_TO_PASS,
    PASS_TO_PASS: t.PASS_TO_PASS,
    test: { command: spec.test.command, env: spec.test.env, report: spec.test.report, timeout_sec: verifyTimeoutSec(t) },
    test_paths: spec.testPaths.map((g) => globToRegExp(g).source),
    protected: RUNNER_FILES.map((g) => globToRegExp(g).source),
    hidden_files: t.hiddenFiles,
    layer: spec.layer,
    layout: { ...layout, copyPrefixes: layout.copyPrefixes ?? [] },
    forging: forgingRuleSources(),
    limits: { max_files: 50_000, max_file_bytes: MAX_CHANGE_BYTES, max_change_bytes: MAX_CHANGE_BYTES, max_report_bytes: 64 * 1024 * 1024 },
    /** The task as FrogNano reads it back (`task import --format harbor`). */
    frognano: { ...t, env: { name: t.env.name, hash: t.env.hash, spec: t.env.spec } },
  };
}

const TEST_SH = `#!/bin/bash
# FrogNano's grading (grade.py): /workspace rebuilt from the broken state in
# /tests/repo and the agent's changes to source files, honeypots laid out, the
# tests run, the reward written to /logs/verifier/reward.txt.
mkdir -p /logs/verifier
# -I -S: no environment variables, user or site hooks reach the grader.
exec python3 -I -S /tests/grade.py
`;

function solveSh(files: { path: string; content: string | null }[]): string {
  const steps = files.map((f) =>
    f.content === null
      ? `rm -f -- ${shellQuote(f.path)}`
      : `mkdir -p -- ${shellQuote(dirname(f.path))} && cp -- ${shellQuote(`/solution/files/${f.path}`)} ${shellQuote(f.path)}`,
  );
  return `#!/bin/bash\n# The reference fix, written as files (nothing beyond bash and cp needed).\nset -e\ncd ${WORKDIR}\n${steps.join('\n')}\n`;
}

/** The task a Harbor directory exported by writeHarborTask holds (tests/config.json keeps it whole). */
export function readHarborTask(dir: string): Task {
  const file = join(dir, 'tests', 'config.json');
  const config: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!isRecord(config) || !isRecord(config.frognano)) throw new Error(`${file} holds no FrogNano task: the directory was not exported by FrogNano`);
  return taskFromJSON(JSON.stringify(config.frognano), file);
}

/** Writes one task's Harbor directory under root (replacing an earlier export of it); returns its path. */
export async function writeHarborTask(root: string, t: Task, ctx: ExportContext): Promise<string> {
  const dir = join(root, harborName(t.id));
  if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  for (const sub of ['environment', 'tests', 'solution/files']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'instruction.md'), t.instruction);
  writeFileSync(join(dir, 'task.toml'), taskToml(t));
  writeFileSync(join(dir, 'environment', 'Dockerfile'), dockerfile(t));
  const view = await agentWorkspace(t, ctx.built, ctx.runtime, ctx.dataDir);
  try {
    cpSync(view.root, join(dir, 'environment', 'repo'), { recursive: true, verbatimSymlinks: true });
  } finally {
    view.dispose();
  }
  const broken = await envWorkspace(ctx.built, ctx.runtime, ctx.dataDir, { patch: t.bugPatch });
  try {
    cpSync(broken.root, join(dir, 'tests', 'repo'), { recursive: true, verbatimSymlinks: true });
  } finally {
    broken.dispose();
  }
  writeFileSync(join(dir, 'tests', 'test.sh'), TEST_SH, { mode: 0o755 });
  chmodSync(join(dir, 'tests', 'test.sh'), 0o755);
  for (const f of ['grade.py', 'frognano_reports.py']) cpSync(join(exportAssetsDir, f), join(dir, 'tests', f));
  writeFileSync(join(dir, 'tests', 'config.json'), `${JSON.stringify(graderConfig(t), null, 1)}\n`);
  const fixed = await referenceFiles(t, ctx.built.snapshot);
  for (const f of fixed) {
    if (f.content === null) continue;
    mkdirSync(dirname(join(dir, 'solution', 'files', f.path)), { recursive: true });
    writeFileSync(join(dir, 'solution', 'files', f.path), f.content);
  }
  writeFileSync(join(dir, 'solution', 'solve.sh'), solveSh(fixed), { mode: 0o755 });
  chmodSync(join(dir, 'solution', 'solve.sh'), 0o755);
  return dir;
}
