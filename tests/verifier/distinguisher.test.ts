// The distinguisher (src/verifier/distinguish.ts) over a named task set: the
// twelve starter environments' own test files, 36 graded layouts each, drawn
// as synthesis draws them (honeypots for one to three failing tests and a
// few passing ones, some failing tests held back from the agent's copy). For
// every test the agent never saw, each fingerprint a forger in the sandbox
// could read (file sizes, times, inodes, listing and collection order, ranks,
// which file holds the visible tests' graded versions, similarity to the
// agent's copy, the values expected: size, sign, roundness, length, whether
// they reappear) guesses which version is graded. None may do better than
// chance: a one-sided z-test per fingerprint, Bonferroni across them at a
// family-wise 5%. The layouts are laid out in scratch folders; nothing runs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sourceDir, starterEnvs } from '../../src/env/load.js';
import { planHoneypots } from '../../src/grading/honeypots.js';
import { idStyle, testIdOf } from '../../src/grading/tests/defs.js';
import { editTests } from '../../src/grading/tests/edit.js';
import { allTestFiles } from '../../src/grading/tests/project.js';
import { rng, shuffle } from '../../src/util/rng.js';
import { table } from '../../src/util/table.js';
import { forgerTrials, scoreFingerprints, scoreRows, zThreshold, type Trial } from '../../src/verifier/distinguish.js';

const DRAWS = 36;

describe('the distinguisher', () => {
  it('guesses the graded version of an unseen test no better than chance by any fingerprint, on the starter environments', { timeout: 300_000 }, async () => {
    const trials: { versions: Trial; agentText: string }[] = [];
    for (const env of starterEnvs()) {
      const spec = env.spec;
      const style = idStyle(spec.test.report.format, spec.language);
      const files = await allTestFiles(sourceDir(env)!, spec);
      const ids = files.flatMap((f) => f.tests.map((t) => testIdOf(t, style)));
      for (let draw = 0; draw < DRAWS; draw++) {
        const random = rng(draw * 7919 + ids.length);
        const order = shuffle(ids, random);
        const f2p = order.slice(0, 1 + Math.floor(random() * 3));
        const p2p = order.slice(3, 9);
        const unseen = new Set(f2p.filter(() => random() < 0.6));
        if (unseen.size === 0) unseen.add(f2p[0]!);
        const plan = await planHoneypots({ files, style, f2p, p2p, reportIds: new Set(ids), random });
        if (!plan) continue;
        const { values: _values, ...layout } = plan;
        const agent = Object.fromEntries(
          files.map((f) => [f.rel, editTests(f, new Map(f.tests.filter((t) => unseen.has(testIdOf(t, style))).map((t) => [t, null])))]),
        );
        const dir = mkdtempSync(join(tmpdir(), 'fn-distinguish-'));
        try {
          const found = await forgerTrials({
            layout: { ...layout, relocate: style === 'pytest', repeats: [] },
            style,
            files,
            agent,
            required: [...f2p, ...p2p],
            visible: new Set([...f2p, ...p2p].filter((id) => !unseen.has(id))),
            dir,
            random,
          });
          const agentText = Object.values(agent).join('\n');
          for (const versions of found) trials.push({ versions, agentText });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
    const scores = scoreFingerprints(trials);
    const limit = zThreshold(scores.length);
    const report = table(['fingerprint', 'guessed right', '95% interval', 'chance', 'z'], scoreRows(scores));
    if (process.env.FROGNANO_DISTINGUISHER_LOG) console.log(`${trials.length} unseen tests; z limit ${limit.toFixed(2)}\n${report}`);
    assert.ok(trials.length >= 400, `enough unseen tests with twins: ${trials.length}`);
    assert.ok(new Set(trials.map((t) => t.versions[0]!.file.endsWith('.py'))).size === 2, 'Python copies and JavaScript same-file twins both');
    for (const s of scores) assert.ok(s.z < limit, `${s.name} guesses better than chance (z ${s.z.toFixed(2)} >= ${limit.toFixed(2)}):\n${report}`);
  });
});
