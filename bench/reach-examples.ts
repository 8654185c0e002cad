// First repair choices replayed from recorded trajectories, with the candidate
// that is the fix marked: the data of bench/policy-reach.ts and
// bench/policy-sim.ts. Each example is one task's first decision (every
// candidate's features) and the indices of the candidates that restore the
// original source (single-bug tasks of the repairable families).
import { taskKnobs } from '../src/train/supply.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isChatMessage } from '../src/model/openai.js';
import type { ChatMessage } from '../src/model/types.js';
import { isRecord } from '../src/util/guards.js';
import { EmbeddedAgent } from '../src/policy/agent.js';
import { HASH_BASE, type Sparse } from '../src/policy/features.js';
import type { LinearPolicy } from '../src/policy/linear.js';
import { readTask } from '../src/task/io.js';
import { fixIndices, reachWithin } from '../src/policy/reach.js';

/** One recorded task's first choice: candidates' features, the fix among them, and the bug's operator family. */
export interface Example {
  id: string;
  env: string;
  family: string;
  feats: Sparse[];
  fix: number[];
}

/** Feature groups by slot, for ablations (--drop dense,hash). */
export const groupOf = (i: number): 'dense' | 'hash' => (i < HASH_BASE ? 'dense' : 'hash');

function masked(f: Sparse, dropped: Set<string>): Sparse {
  if (dropped.size === 0) return f;
  const keep = f.idx.map((i) => !dropped.has(groupOf(i)));
  return { idx: f.idx.filter((_, k) => keep[k]), val: f.val.filter((_, k) => keep[k]) };
}

export async function loadExamples(
  tasksDir: string,
  trajDir: string,
  policy: LinearPolicy,
  drop: string[] = [],
): Promise<{ examples: Example[]; unreachable: number }> {
  const dropped = new Set(drop);
  const examples: Example[] = [];
  let unreachable = 0;
  for (const id of readdirSync(tasksDir).sort()) {
    const file = join(trajDir, id, 'attempt-0.jsonl');
    if (!existsSync(file)) continue;
    const task = readTask(join(tasksDir, id));
    const recorded: ChatMessage[] = [];
    for (const line of readFileSync(file, 'utf8').trim().split('\n')) {
      const e: unknown = JSON.parse(line);
      if (!isRecord(e) || e.type !== 'message') continue;
      if (!isChatMessage(e.message)) throw new Error(`${file}: a message line holds no chat message`);
      recorded.push(e.message);
    }
    // Replay: the agent asks for the same reads, so the recorded observations answer them.
    const agent = new EmbeddedAgent(policy, { seed: 1, openingOnly: true });
    const messages = recorded.slice(0, 2);
    for (let i = 2; ; i += 2) {
      const turn = await agent.turn({ messages });
      const call = turn.message.tool_calls?.[0];
      if (!call) break;
      const first: unknown = recorded[i]?.tool_calls?.[0];
      const asked = isRecord(first) ? first.function : undefined;
      if (JSON.stringify(asked) !== JSON.stringify(call.function)) break;
      messages.push(turn.message, recorded[i + 1]!);
    }
    if (!agent.opening) continue;
    const fix = fixIndices(agent.opening, task.fixPatch);
    if (fix === null) continue; // several bugs
    if (fix.length === 0) unreachable++;
    else examples.push({ id, env: task.env.name, family: taskKnobs(task).family, feats: agent.opening.feats.map((f) => masked(f, dropped)), fix });
  }
  return { examples, unreachable };
}

/** Probability the policy puts on the fix. */
export function pFix(p: LinearPolicy, e: Example): number {
  const pr = p.probabilities(e.feats);
  return e.fix.reduce((a, k) => a + pr[k]!, 0);
}

/** Chance the fix is among K distinct draws (Monte Carlo; the trainer's own screen, src/train/reach.ts). */
export function hitK(p: LinearPolicy, e: Example, k: number, random: () => number, runs = 200): number {
  return reachWithin(p.probabilities(e.feats), e.fix, k, random, runs);
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
