// A cell whose run throws must not halt a protocol: its failure is kept beside its run, the chunk goes on, a later
// invocation tries it again, and after MAX_TRIES the protocol skips it. Two failures in a row stop a chunk and do not
// count as the cells' tries. The failing learner is scripted (its update and save throw, as a learner whose engine went
// away would); the other cells train for real.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { countedTries, failuresPath, MAX_TRIES, readFailures, recordFailure } from '../../src/evidence/failures.js';
import { cellDir, type Protocol } from '../../src/evidence/protocol.js';
import { resultPath, runChunk, type EvidenceDeps } from '../../src/evidence/run.js';
import { ResultReuse } from '../../src/grading/reuse.js';
import { EmbeddedLearner } from '../../src/policy/learner.js';
import type { Learner } from '../../src/rl/contract.js';
import { selectRuntime } from '../../src/runtime/select.js';
import type { TrainConfig } from '../../src/train/config.js';
import { UserError } from '../../src/util/errors.js';
import { tinyTrainEnvs } from '../helpers/train-env.js';
import { smallProtocol } from '../helpers/protocol.js';
import { tempDir } from '../helpers/workspace.js';

const protocol = smallProtocol('failing', [{ heldOut: 'tiny-text', train: ['tiny-stats'] }], ['frontier', 'static', 'uniform']);

/** What a learner whose engine went away throws: a user's error, with a hint. */
const gone = () => new UserError('scripted: the engine went away', 'is the engine at --tinker-url up?');

/** Scripted: the embedded learner, except that every update and every save throws. */
function failing(cfg: TrainConfig): Learner<unknown> {
  const inner = new EmbeddedLearner(cfg);
  return {
    kind: inner.kind,
    maxStaleness: inner.maxStaleness,
    policy: () => inner.policy(),
    update: () => Promise.reject(gone()),
    // A step whose groups all carry no signal may not update; every step saves.
    save: () => {
      throw gone();
    },
    restore: (s) => inner.restore(s),
  };
}

describe('evidence: a failing cell', () => {
  it('is recorded and passed over; two in a row stop the chunk; a later success clears it; MAX_TRIES gives up', { timeout: 600_000 }, async () => {
    const out = tempDir('fn-evidence-fail-');
    const lines: string[] = [];
    let staticTries = 0;
    const deps = (p: Protocol): [Protocol, EvidenceDeps] => [
      p,
      {
        envs: tinyTrainEnvs(),
        runtime: selectRuntime({ warn: () => {} }),
        outDir: out,
        handwritten: [],
        reuse: new ResultReuse(),
        hours: 1,
        learner: {
          config: { learner: 'embedded' },
          // static fails on its first try only; uniform always.
          make: (cfg, cell) => (cell.arm.name === 'uniform' || (cell.arm.name === 'static' && staticTries++ === 0) ? failing(cfg) : new EmbeddedLearner(cfg)),
        },
        log: (l) => lines.push(l),
      },
    ];
    const first = await runChunk(...deps(protocol));
    assert.deepEqual(
      first.failed.map((f) => f.cell),
      ['tiny-text.static.s1', 'tiny-text.uniform.s1'],
    );
    assert.match(first.failed[0]!.message, /scripted: the engine went away \(is the engine at --tinker-url up\?\)/);
    assert.match(first.halted ?? '', /2 cells failed in a row/);
    // Seed 2 was never started: the chunk stopped at the second failure.
    assert.equal(first.left, 5);
    assert.ok(!existsSync(cellDir(out, 'tiny-text.frontier.s2')));
    assert.equal(first.results.length, 1);
    // Failures in a row are laid to what the cells share: kept, but not counted as the cells' tries.
    const staticFailures = readFailures(cellDir(out, 'tiny-text.static.s1'));
    assert.equal(staticFailures.length, 1);
    assert.equal(staticFailures[0]!.shared, true);
    assert.equal(countedTries(readFailures(cellDir(out, 'tiny-text.uniform.s1'))), 0);
    assert.match(first.halted ?? '', /do not count toward the cells' 3 tries/);
    assert.ok(lines.some((l) => /tiny-text\.static\.s1 failed \(try 1 of 3\): scripted/.test(l)));

    // uniform has failed MAX_TRIES times on its own by now (written as earlier invocations would have).
    const uniformDir = cellDir(out, 'tiny-text.uniform.s1');
    for (let i = 0; i < MAX_TRIES; i++) recordFailure(uniformDir, 'scripted: the engine went away');
    const second = await runChunk(...deps({ ...protocol, seeds: [1] }));
    assert.deepEqual(second.failed, []);
    assert.deepEqual(second.givenUp, ['tiny-text.uniform.s1']);
    assert.ok(existsSync(resultPath(out, { id: 'tiny-text.static.s1' } as never)), 'static finished on its second try');
    assert.ok(!existsSync(failuresPath(cellDir(out, 'tiny-text.static.s1'))), 'a finished cell keeps no failures');
    assert.equal(second.results.length, 2);
    assert.equal(second.left, 1);
    assert.ok(lines.some((l) => l.startsWith(`skipping tiny-text.uniform.s1: it failed ${MAX_TRIES} times`) && l.includes(failuresPath(uniformDir))));
  });
});
