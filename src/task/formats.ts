// Task interchange: SWE-bench JSONL and SWE-smith JSONL (export and import),
// and Harbor task directories (export).
//
// SWE-bench's `patch` is the gold fix and FAIL_TO_PASS / PASS_TO_PASS are
// JSON-encoded strings; SWE-smith's `patch` introduces the bug and the lists
// are plain arrays. Our own fields ride along under "frognano", which other
// tools ignore, so an export imports back to the same task.
import { chmodSync, cpSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { matchesAny } from '../util/glob.js';
import { isRecord, isStringArray } from '../util/guards.js';
import type { EnvironmentSpec } from '../env/spec.js';
import { TASK_SCHEMA, type Task } from './task.js';

type Extra = Pick<Task, 'bugPatch' | 'fixPatch' | 'hiddenFiles' | 'heldBack' | 'grading' | 'knobs' | 'provenance' | 'stats'> & { env: Task['env'] };

/** Our own fields as toSweBench wrote them, checked as far as a task is read from them. */
function isExtra(x: unknown): x is Extra {
  return (
    isRecord(x) &&
    typeof x.bugPatch === 'string' &&
    typeof x.fixPatch === 'string' &&
    isStringArray(x.hiddenFiles) &&
    isRecord(x.env) &&
    isRecord(x.knobs) &&
    isRecord(x.provenance) &&
    isRecord(x.stats)
  );
}

function extra(t: Task): Extra {
  return {
    bugPatch: t.bugPatch,
    fixPatch: t.fixPatch,
    hiddenFiles: t.hiddenFiles,
    ...(t.heldBack ? { heldBack: t.heldBack } : {}),
    ...(t.grading ? { grading: t.grading } : {}),
    knobs: t.knobs,
    provenance: t.provenance,
    stats: t.stats,
    env: t.env,
  };
}

export function toSweBench(t: Task): Record<string, unknown> {
  return {
    repo: `frognano/${t.env.name}`,
    instance_id: t.id,
    base_commit: t.env.hash,
    patch: t.fixPatch,
    test_patch: '',
    problem_statement: t.instruction,
    hints_text: '',
    created_at: t.stats.createdAt,
    version: '1',
    FAIL_TO_PASS: JSON.stringify(t.FAIL_TO_PASS),
    PASS_TO_PASS: JSON.stringify(t.PASS_TO_PASS),
    environment_setup_commit: t.env.hash,
    frognano: extra(t),
  };
}

export function toSweSmith(t: Task): Record<string, unknown> {
  return {
    instance_id: t.id,
    repo: `frognano/${t.env.name}`,
    patch: t.bugPatch,
    FAIL_TO_PASS: t.FAIL_TO_PASS,
    PASS_TO_PASS: t.PASS_TO_PASS,
    created_at: t.stats.createdAt,
    image_name: `frognano.${t.env.name}.${t.env.hash}`,
    base_commit: t.env.hash,
    problem_statement: t.instruction,
    frognano: extra(t),
  };
}

function list(v: unknown, field: string): string[] {
  const parsed = typeof v === 'string' ? JSON.parse(v) : v;
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) throw new Error(`${field} is not a list of test ids`);
  return parsed;
}

/**
 * A record without our own fields needs its environment and the patch in the
 * other direction, which the caller computes against the snapshot.
 */
export interface ForeignContext {
  env: { name: string; hash: string; spec: EnvironmentSpec };
  /** Reverses a patch against the environment's snapshot. */
  reverse: (patch: string) => Promise<string>;
}

export async function fromRecord(format: 'swebench' | 'swesmith', rec: Record<string, unknown>, foreign?: ForeignContext): Promise<Task> {
  const f2p = list(rec.FAIL_TO_PASS, 'FAIL_TO_PASS');
  const p2p = list(rec.PASS_TO_PASS, 'PASS_TO_PASS');
  const own = isExtra(rec.frognano) ? rec.frognano : undefined;
  const base = {
    schema: TASK_SCHEMA as typeof TASK_SCHEMA,
    id: String(rec.instance_id),
    instruction: String(rec.problem_statement ?? ''),
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
  };
  if (own) return { ...base, ...own };
  if (!foreign) throw new Error(`${rec.instance_id}: a record from another tool needs --env, the environment it runs in`);
  const given = String(rec.patch ?? '');
  const [bugPatch, fixPatch] = format === 'swesmith' ? [given, await foreign.reverse(given)] : [await foreign.reverse(given), given];
  return {
    ...base,
    env: foreign.env,
    bugPatch,
    fixPatch,
    hiddenFiles: [],
    knobs: { bugs: 1, hint: 'full', visibility: 'visible', families: [] },
    provenance: { strategy: 'imported', edits: [], seeds: [], original: rec },
    stats: { createdAt: String(rec.created_at ?? new Date().toISOString()) },
  };
}

// --- Harbor ---------------------------------------------------------------

const GRADER = `#!/usr/bin/env python3
"""Grades a FrogNano task inside a Harbor container: reads the runner's report,
checks FAIL_TO_PASS and PASS_TO_PASS (a missing or skipped test fails), writes
the reward."""
import json, re, sys, xml.etree.ElementTree as ET

cfg = json.load(open("/tests/config.json"))
fmt, path, exit_code = sys.argv[1], sys.argv[2], int(sys.argv[3])
status = {}
text = open(path, encoding="utf-8", errors="replace").read()
if fmt == "junit":
    for tc in ET.fromstring(text).iter("testcase"):
        f, cls, name = tc.get("file"), tc.get("classname", ""), tc.get("name")
        if f and f.endswith(".py"):
            mod = f[:-3].replace("/", ".")
            rest = cls[len(mod):].lstrip(".") if cls.startswith(mod) else ""
            tid = "::".join([f] + (rest.split(".") if rest else []) + [name])
        else:
            tid = f"{cls}::{name}" if cls else name
        kids = [c.tag for c in tc]
        status[tid] = "failed" if ("failure" in kids or "error" in kids) else "skipped" if "skipped" in kids else "passed"
elif fmt == "tap":
    # Ids are the path of "# Subtest:" headers down to each test point.
    ids, path_ = {}, []
    for line in text.splitlines():
        m = re.match(r"^( *)# Subtest: (.*)$", line)
        if m and len(m.group(1)) % 4 == 0:
            d = len(m.group(1)) // 4
            path_ = path_[:d] + [m.group(2).replace("\\\\#", "#")]
        m = re.match(r"^( *)(not )?ok \\d+ - (.*?)(?: # (SKIP|TODO).*)?$", line)
        if m and len(m.group(1)) % 4 == 0:
            d = len(m.group(1)) // 4
            ids[" > ".join(path_[: d + 1])] = "skipped" if m.group(4) else ("failed" if m.group(2) else "passed")
    status = ids
else:
    data = json.loads(text[text.index("{"): text.rindex("}") + 1])
    for f in data.get("testResults", []):
        for a in f.get("assertionResults", []):
            status[" > ".join([f["name"].replace("/workspace/", "")] + a.get("ancestorTitles", []) + [a["title"]])] = {"passed": "passed", "failed": "failed"}.get(a["status"], "skipped")
failed = any(s == "failed" for s in status.values())
agrees = (exit_code == 0) == (not failed)
ok = bool(status) and agrees and all(status.get(t) == "passed" for t in cfg["FAIL_TO_PASS"] + cfg["PASS_TO_PASS"])
open("/logs/verifier/reward.txt", "w").write("1" if ok else "0")
print("resolved" if ok else "not resolved")
`;

function toml(value: string): string {
  return JSON.stringify(value);
}

/** A Harbor task directory: instruction, task.toml, environment, tests, solution. */
export function writeHarborTask(root: string, t: Task, snapshotDir: string): string {
  const dir = join(root, t.id.replace(/[^A-Za-z0-9._-]/g, '_'));
  const spec = t.env.spec;
  mkdirSync(join(dir, 'environment'), { recursive: true });
  mkdirSync(join(dir, 'tests'), { recursive: true });
  mkdirSync(join(dir, 'solution'), { recursive: true });
  writeFileSync(join(dir, 'instruction.md'), t.instruction);
  writeFileSync(
    join(dir, 'task.toml'),
    [
      'schema_version = "1.1"',
      'source = "frognano"',
      '',
      '[task]',
      `name = ${toml(`frognano/${t.id}`)}`,
      `description = ${toml(`A ${spec.language} bug in ${spec.name}, synthesized by FrogNano (${t.provenance.strategy})`)}`,
      `keywords = ["frognano", ${toml(spec.language)}, ${toml(t.provenance.strategy)}]`,
      '',
      '[metadata]',
      `frognano_task = ${toml(t.id)}`,
      `environment_hash = ${toml(t.env.hash)}`,
      `bugs = ${t.knobs.bugs}`,
      '',
      '[verifier]',
      `timeout_sec = ${spec.timeoutSec * 2}`,
      '',
      '[agent]',
      'timeout_sec = 1800',
      '',
      '[environment]',
      'build_timeout_sec = 600',
      'allow_internet = false',
      '',
    ].join('\n'),
  );
  const base = spec.language === 'python' ? 'python:3.11-slim' : 'node:20-slim';
  const setup = spec.setup.map((s) => `RUN ${s.replaceAll('{python}', 'python3')}`).join('\n');
  writeFileSync(
    join(dir, 'environment', 'Dockerfile'),
    `FROM ${base}\n${spec.language === 'python' ? 'RUN pip install --no-cache-dir pytest\n' : ''}WORKDIR /workspace\nCOPY repo/ /workspace/\n${setup}\nCOPY bug.patch /tmp/bug.patch\nRUN git apply /tmp/bug.patch 2>/dev/null || patch -p1 < /tmp/bug.patch && rm /tmp/bug.patch\n`,
  );
  mkdirSync(join(dir, 'environment', 'repo'), { recursive: true });
  cpSync(snapshotDir, join(dir, 'environment', 'repo'), { recursive: true });
  writeFileSync(join(dir, 'environment', 'bug.patch'), t.bugPatch);
  const report = spec.test.report.from === 'file' ? '/tmp/report' : '/tmp/report.out';
  const cmd = spec.test.command.map((a) => a.replaceAll('{report}', '/tmp/report').replaceAll('{python}', 'python3'));
  const quoted = cmd.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
  const env = Object.entries(spec.test.env)
    .map(([k, v]) => `export ${k}='${v}'`)
    .join('\n');
  writeFileSync(
    join(dir, 'tests', 'test.sh'),
    `#!/bin/bash\n# Restores the tests, runs them, and grades FAIL_TO_PASS and PASS_TO_PASS.\nmkdir -p /logs/verifier\ncd /workspace\ncp -r /tests/original/. /workspace/\n${env}\n${quoted} > /tmp/report.out 2>/tmp/report.err\ncode=$?\npython3 /tests/grade.py ${spec.test.report.format} ${report} $code\n`,
  );
  chmodSync(join(dir, 'tests', 'test.sh'), 0o755);
  writeFileSync(join(dir, 'tests', 'grade.py'), GRADER);
  writeFileSync(join(dir, 'tests', 'config.json'), JSON.stringify({ ...toSweBench(t), FAIL_TO_PASS: t.FAIL_TO_PASS, PASS_TO_PASS: t.PASS_TO_PASS }, null, 2));
  mkdirSync(join(dir, 'tests', 'original'), { recursive: true });
  copyTests(snapshotDir, join(dir, 'tests', 'original'), spec.testPaths);
  writeFileSync(join(dir, 'solution', 'fix.patch'), t.fixPatch);
  writeFileSync(
    join(dir, 'solution', 'solve.sh'),
    '#!/bin/bash\ncd /workspace\ngit apply /solution/fix.patch 2>/dev/null || patch -p1 < /solution/fix.patch\n',
  );
  chmodSync(join(dir, 'solution', 'solve.sh'), 0o755);
  return dir;
}

function copyTests(snapshot: string, to: string, globs: string[]): void {
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const rel = relative(snapshot, p);
      if (statSync(p).isDirectory()) walk(p);
      else if (matchesAny(rel, globs)) {
        mkdirSync(join(to, rel, '..'), { recursive: true });
        cpSync(p, join(to, rel));
      }
    }
  };
  walk(snapshot);
}
