// First repair choices replayed from recorded trajectories, with the candidate
// that is the fix marked: the data of bench/policy-reach.ts and
// bench/policy-sim.ts. Each example is one task's first decision (every
// candidate's features) and the indices of the candidates that restore the
// original source (single-bug tasks of the repairable families).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { starterEnvs, sourceDir } from '../src/env/load.js';
import type { ChatMessage } from '../src/model/types.js';
import { EmbeddedAgent } from '../src/policy/agent.js';
import { applyRepair, repairsIn } from '../src/policy/candidates.js';
import { HASH_BASE, OP_BASE, type Sparse } from '../src/policy/features.js';
import type { LinearPolicy } from '../src/policy/linear.js';
import { readTask } from '../src/task/io.js';
import { patchFiles } from '../src/util/diff.js';

export interface Example { id: string; env: string; feats: Sparse[]; fix: number[] }

/** Feature groups by slot, for ablations (--drop dense,op,hash). */
export const groupOf = (i: number): 'dense' | 'op' | 'hash' => (i < OP_BASE ? 'dense' : i < HASH_BASE ? 'op' : 'hash');

function masked(f: Sparse, dropped: Set<string>): Sparse {
  if (dropped.size === 0) return f;
  const keep = f.idx.map((i) => !dropped.has(groupOf(i)));
  return { idx: f.idx.filter((_, k) => keep[k]), val: f.val.filter((_, k) => keep[k]) };
}

export async function loadExamples(tasksDir: string, trajDir: string, policy: LinearPolicy, drop: string[] = []): Promise<{ examples: Example[]; unreachable: number }> {
  const dropped = new Set(drop);
  const repos = new Map(starterEnvs().map((e) => [e.spec.name, sourceDir(e)]));
  const examples: Example[] = [];
  let unreachable = 0;
  for (const id of readdirSync(tasksDir).sort()) {
    const file = join(trajDir, id, 'attempt-0.jsonl');
    const repo = existsSync(file) ? repos.get(readTask(join(tasksDir, id)).env.name) : undefined;
    if (!repo) continue;
    const task = readTask(join(tasksDir, id));
    const recorded = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; message?: ChatMessage })
      .filter((e) => e.type === 'message').map((e) => e.message!);
    // Replay: the agent asks for the same reads, so the recorded observations answer them.
    const agent = new EmbeddedAgent(policy, { seed: 1 });
    const messages = recorded.slice(0, 2);
    for (let i = 2; ; i += 2) {
      const turn = await agent.turn({ messages });
      const call = turn.message.tool_calls?.[0];
      if (!call || call.function.name === 'Edit') break;
      const asked = (recorded[i]?.tool_calls as { function: unknown }[] | undefined)?.[0]?.function;
      if (JSON.stringify(asked) !== JSON.stringify(call.function)) break;
      messages.push(turn.message, recorded[i + 1]!);
    }
    const decision = agent.decisions[0];
    if (!decision) continue;
    // The same candidates in the same order as the agent's choice (files in reading order).
    const files = (agent as unknown as { files: Map<string, string> }).files;
    const cands: { file: string; text: string; r: Awaited<ReturnType<typeof repairsIn>>[number] }[] = [];
    for (const [f, text] of files) for (const r of await repairsIn(f, text)) cands.push({ file: f, text, r });
    const original = new Map(patchFiles(task.fixPatch).map((f) => [f, readFileSync(join(repo, f), 'utf8')]));
    const fix = cands.flatMap((c, k) => (original.get(c.file) === applyRepair(c.text, c.r) ? [k] : []));
    if (fix.length === 0) unreachable++;
    else examples.push({ id, env: task.env.name, feats: decision.feats.map((f) => masked(f, dropped)), fix });
  }
  return { examples, unreachable };
}

/** Probability the policy puts on the fix. */
export function pFix(p: LinearPolicy, e: Example): number {
  const pr = p.probabilities(e.feats);
  return e.fix.reduce((a, k) => a + pr[k]!, 0);
}

/** Chance the fix is among K distinct draws (Monte Carlo). */
export function hitK(p: LinearPolicy, e: Example, k: number, random: () => number, runs = 200): number {
  const probs = p.probabilities(e.feats);
  let hits = 0;
  for (let r = 0; r < runs; r++) {
    const w = [...probs];
    for (let j = 0; j < k; j++) {
      let u = random() * w.reduce((a, b) => a + b, 0), c = 0;
      while (c < w.length - 1 && (u -= w[c]!) > 0) c++;
      if (e.fix.includes(c)) { hits++; break; }
      w[c] = 0;
    }
  }
  return hits / runs;
}

export const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/**
 * The trained-on environments' examples split in two (alternately): the fit
 * or the simulated training sees one half; the other half measures transfer
 * to fresh tasks of the same environments.
 */
export function splitExamples(examples: Example[], heldOut: string): { train: Example[]; fresh: Example[]; held: Example[] } {
  const inTrainEnvs = examples.filter((e) => e.env !== heldOut);
  return {
    train: inTrainEnvs.filter((_, k) => k % 2 === 0),
    fresh: inTrainEnvs.filter((_, k) => k % 2 === 1),
    held: examples.filter((e) => e.env === heldOut),
  };
}
