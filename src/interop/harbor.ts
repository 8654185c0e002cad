// Harbor task directories (docs/exports.md): instruction.md, task.toml,
// environment/ (a Dockerfile and the agent's view of the broken repository),
// tests/ (test.sh, FrogNano's grader, the broken state it grades from and a
// manifest of them all, whose hash test.sh carries; the guard where the
// layout's graded runs load it), solution/ (the reference
// fix as files). The image needs nothing the environment's language does not
// bring, except Python for the grader on JavaScript images; the bug is
// already in the copied files, so no git or patch runs at build or grading
// time.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
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
import { exportAssetsDir, guardAssetsDir } from '../util/paths.js';
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

/** The image's own Python, by absolute path: python:3.11-slim's, or Debian's on the Node image. */
export function graderPython(spec: Task['env']['spec']): string {
  return spec.language === 'python' ? '/usr/local/bin/python3' : '/usr/bin/python3';
}

/** The guard's files (assets/guard), shipped under tests/guard/ where the layout's graded runs load it. */
export const GUARD_FILES = ['sitecustomize.py', 'guard.cjs'] as const;

/** Files under tests/ that the manifest cannot list: test.sh carries the manifest's hash. */
const UNLISTED = new Set(['test.sh', 'manifest.json']);

/**
 * tests/manifest.json: every entry under tests/ but test.sh and itself (files
 * by SHA-256 and size, links by target, folders), which grade.py checks
 * /tests against before it reads anything there.
 */
export function testsManifest(testsDir: string, instanceId: string): string {
  const files: Record<string, { sha256: string; size: number }> = {};
  const links: Record<string, string> = {};
  const dirs: string[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(testsDir, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (!rel && UNLISTED.has(name)) continue;
      const st = lstatSync(join(testsDir, path));
      if (st.isSymbolicLink()) links[path] = readlinkSync(join(testsDir, path));
      else if (st.isDirectory()) {
        dirs.push(path);
        walk(path);
      } else {
        const content = readFileSync(join(testsDir, path));
        files[path] = { sha256: createHash('sha256').update(content).digest('hex'), size: content.length };
      }
    }
  };
  walk('');
  return `${JSON.stringify({ instance_id: instanceId, files, links, dirs }, null, 1)}\n`;
}

function testSh(t: Task, manifest: string): string {
  return `#!/bin/bash
# FrogNano's grading (grade.py): processes the agent left ended, every file
# under /tests checked against manifest.json (its SHA-256 below), /workspace
# rebuilt from the broken state in /tests/repo and the agent's changes to
# source files, honeypots laid out, the tests run, the reward written last
# to /logs/verifier/reward.txt.
# The image's interpreter by absolute path; -I: no environment variables, user
# site or script folder on its path; -S: no site-packages or .pth hooks.
exec ${graderPython(t.env.spec)} -I -S /tests/grade.py ${createHash('sha256').update(manifest).digest('hex')}
`;
}

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
  for (const f of ['grade.py', 'frognano_reports.py']) cpSync(join(exportAssetsDir, f), join(dir, 'tests', f));
  if (t.grading?.guard === true) {
    // The guard the verifier's graded runs load (src/grading/guard.ts), for grade.py to load in its own.
    mkdirSync(join(dir, 'tests', 'guard'));
    for (const f of GUARD_FILES) cpSync(join(guardAssetsDir, f), join(dir, 'tests', 'guard', f));
  }
  writeFileSync(join(dir, 'tests', 'config.json'), `${JSON.stringify(graderConfig(t), null, 1)}\n`);
  // The manifest once everything it lists is written; test.sh, which names it, last.
  const manifest = testsManifest(join(dir, 'tests'), t.id);
  writeFileSync(join(dir, 'tests', 'manifest.json'), manifest);
  writeFileSync(join(dir, 'tests', 'test.sh'), testSh(t, manifest), { mode: 0o755 });
  chmodSync(join(dir, 'tests', 'test.sh'), 0o755);
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
