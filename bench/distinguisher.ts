// The distinguisher (src/verifier/distinguish.ts) on synthesized tasks: for
// every test of a task the agent never saw (held back, in a hidden file, or
// generated from the reference fix) that has twins, each fingerprint a forger
// could read guesses which version is graded. Prints each fingerprint's hits
// with a 95% interval, chance, z, and the Bonferroni limit.
//
//   npx tsx bench/distinguisher.ts --tasks DIR [--layouts 3] [--only checks|held-back]
//
// Each task's layout is laid out `--layouts` times (fresh names each time, as
// every grading draws them) in scratch folders; nothing runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sourceDir, starterEnvs } from '../src/env/load.js';
import { withoutHeldBack } from '../src/grading/holdback.js';
import { idStyle, testIdOf } from '../src/grading/tests/defs.js';
import { allTestFiles } from '../src/grading/tests/project.js';
import { readTasks } from '../src/task/io.js';
import { rng } from '../src/util/rng.js';
import { table } from '../src/util/table.js';
import { forgerTrials, scoreFingerprints, scoreRows, zThreshold, type Trial } from '../src/verifier/distinguish.js';

const { values } = parseArgs({ options: { tasks: { type: 'string' }, layouts: { type: 'string', default: '3' }, only: { type: 'string' } } });
if (!values.tasks) throw new Error('pass --tasks DIR (a folder of task directories, e.g. from frognano synth)');
const envs = new Map(starterEnvs().map((e) => [e.spec.name, e]));
const trials: { versions: Trial; agentText: string }[] = [];
const tasks = readTasks(values.tasks).filter((t) => t.grading);
let kinds = { checks: 0, heldBack: 0, hidden: 0 };
for (const [i, t] of tasks.entries()) {
  const env = envs.get(t.env.name);
  if (!env) continue;
  const snapshot = sourceDir(env)!;
  const spec = t.env.spec;
  const style = idStyle(spec.test.report.format, spec.language);
  const files = await allTestFiles(snapshot, spec);
  const cut = await withoutHeldBack(snapshot, spec, t.heldBack ?? []);
  const agent = Object.fromEntries(files.filter((f) => !t.hiddenFiles.includes(f.rel)).map((f) => [f.rel, cut[f.rel] ?? f.text]));
  const checks = t.grading!.checks ?? [];
  const hiddenIds = new Set(files.filter((f) => t.hiddenFiles.includes(f.rel)).flatMap((f) => f.tests.map((d) => testIdOf(d, style))));
  // --only: the unseen tests of one kind are judged; the others count as seen (their values are then the agent's).
  const kinds_ = { checks, 'held-back': [...(t.heldBack ?? []), ...t.FAIL_TO_PASS.filter((id) => hiddenIds.has(id))] };
  const unseen = new Set(
    values.only === 'checks' ? kinds_.checks : values.only === 'held-back' ? kinds_['held-back'] : [...kinds_.checks, ...kinds_['held-back']],
  );
  const required = [...t.FAIL_TO_PASS, ...checks, ...t.PASS_TO_PASS];
  for (let k = 0; k < Number(values.layouts); k++) {
    const dir = mkdtempSync(join(tmpdir(), 'fn-distinguish-'));
    try {
      const found = await forgerTrials({
        layout: t.grading!,
        style,
        files,
        agent,
        required,
        visible: new Set(required.filter((id) => !unseen.has(id))),
        dir,
        random: rng(i * 31 + k),
      });
      const agentText = Object.values(agent).join('\n');
      for (const versions of found) trials.push({ versions, agentText });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  kinds = { checks: kinds.checks + checks.length, heldBack: kinds.heldBack + (t.heldBack?.length ?? 0), hidden: kinds.hidden + (t.hiddenFiles.length ? 1 : 0) };
  if (process.stderr.isTTY) process.stderr.write(`\r${i + 1}/${tasks.length} tasks laid out`);
}
process.stderr.write('\n');
const scores = scoreFingerprints(trials);
console.log(
  `${trials.length} unseen tests with twins (${tasks.length} tasks x ${values.layouts} layouts; ${kinds.checks} generated checks, ${kinds.heldBack} held-back tests, ${kinds.hidden} tasks with hidden files)`,
);
console.log(`Bonferroni limit on z (one-sided, family-wise 5%, ${scores.length} fingerprints): ${zThreshold(scores.length).toFixed(2)}`);
console.log(table(['fingerprint', 'guessed right', '95% interval', 'chance', 'z'], scoreRows(scores)));
