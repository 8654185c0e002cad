// How close the embedded policy's first choice is to the fix, offline.
//
// For tasks whose trajectories `frognano eval --trajectories` recorded, replays
// each episode's opening (test run, file listing, reads) through a fresh agent
// up to its first repair choice, finds the candidate that restores the original
// source (single-bug tasks of the repairable families), and reports: the
// probability the policy puts on it, and the chance it is among K distinct
// draws (K attempts, ignoring what the tests say between them). With --fit,
// also fits the weights to the fixes of the non-held-out environments
// (supervised, so an upper bound on what the features let training reach) and
// reports the held-out environment before and after.
//
//   npx frognano synth --env durations,lru-cache,semver-ranges,md-tokens --n 20 --strategy procedural \
//     --operators operations,control --hint full --visibility visible --out /tmp/reach/tasks
//   npx frognano eval --tasks /tmp/reach/tasks --model embedded --trajectories /tmp/reach/traj
//   npx tsx bench/policy-reach.ts --tasks /tmp/reach/tasks --trajectories /tmp/reach/traj [--checkpoint P] [--fit]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { starterEnvs, sourceDir } from '../src/env/load.js';
import type { ChatMessage } from '../src/model/types.js';
import { EmbeddedAgent } from '../src/policy/agent.js';
import { applyRepair, repairsIn } from '../src/policy/candidates.js';
import { FEATURE_DIM, type Sparse } from '../src/policy/features.js';
import { LinearPolicy } from '../src/policy/linear.js';
import { readTask } from '../src/task/io.js';
import { patchFiles } from '../src/util/diff.js';
import { rng } from '../src/util/rng.js';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string' }, trajectories: { type: 'string' }, checkpoint: { type: 'string' },
    'held-out': { type: 'string', default: 'md-tokens' }, attempts: { type: 'string', default: '10' }, fit: { type: 'boolean', default: false },
  },
});
if (!values.tasks || !values.trajectories) throw new Error('pass --tasks DIR and --trajectories DIR (see the header of this file)');
const K = Number(values.attempts);
const policy = values.checkpoint ? LinearPolicy.load(values.checkpoint) : new LinearPolicy();
const repos = new Map(starterEnvs().map((e) => [e.spec.name, sourceDir(e)]));

interface Example { id: string; env: string; feats: Sparse[]; fix: number[] }
const examples: Example[] = [];
let unreachable = 0;
for (const id of readdirSync(values.tasks).sort()) {
  const file = join(values.trajectories, id, 'attempt-0.jsonl');
  const repo = existsSync(file) ? repos.get(readTask(join(values.tasks, id)).env.name) : undefined;
  if (!repo) continue;
  const task = readTask(join(values.tasks, id));
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
  else examples.push({ id, env: task.env.name, feats: decision.feats, fix });
}

const pFix = (p: LinearPolicy, e: Example) => { const pr = p.probabilities(e.feats); return e.fix.reduce((a, k) => a + pr[k]!, 0); };
/** Chance the fix is among K distinct draws (Monte Carlo). */
function hitK(p: LinearPolicy, e: Example, random: () => number, runs = 200): number {
  const probs = p.probabilities(e.feats);
  let hits = 0;
  for (let r = 0; r < runs; r++) {
    const w = [...probs];
    for (let k = 0; k < K; k++) {
      let u = random() * w.reduce((a, b) => a + b, 0), j = 0;
      while (j < w.length - 1 && (u -= w[j]!) > 0) j++;
      if (e.fix.includes(j)) { hits++; break; }
      w[j] = 0;
    }
  }
  return hits / runs;
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const train = examples.filter((e) => e.env !== values['held-out']);
const held = examples.filter((e) => e.env === values['held-out']);
function report(label: string, p: LinearPolicy): void {
  const random = rng(1);
  const row = (xs: Example[]) => `${String(xs.length).padStart(3)} tasks  p(fix) ${mean(xs.map((e) => pFix(p, e))).toFixed(3)}  fix within ${K} draws ${(100 * mean(xs.map((e) => hitK(p, e, random)))).toFixed(1)}%`;
  console.log(`${label.padEnd(18)} trained-on envs: ${row(train)} | ${values['held-out']}: ${row(held)}`);
}
console.log(`${examples.length} single-bug tasks with a reachable fix; ${unreachable} unreachable (removal-like bugs no candidate undoes)`);
report(values.checkpoint ? 'checkpoint' : 'untrained (prior)', policy);
report('zero weights', new LinearPolicy('zero'));
if (values.fit) {
  const fitted = values.checkpoint ? LinearPolicy.load(values.checkpoint) : new LinearPolicy();
  for (let epoch = 1; epoch <= 20; epoch++) {
    const grad = new Float64Array(FEATURE_DIM);
    for (const e of train) {
      const pr = fitted.probabilities(e.feats), pf = pFix(fitted, e);
      for (const k of e.fix) fitted.accumulate({ feats: e.feats, chosen: k, temperature: 1 }, pr[k]! / pf / train.length, grad);
    }
    fitted.update(grad, 0.1);
  }
  report('supervised fit', fitted);
}
