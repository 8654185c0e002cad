// Issue 23's end-to-end check: rollouts per wall-clock minute of `frognano
// train` (default settings, --time-limit 0, a fixed budget) and valid tasks
// per wall-clock minute of `frognano synth`, for one or more checkouts of
// FrogNano run back to back on this machine (each built: `npm run build`), so
// a before and an after share the machine's load. Every rate comes with its
// counts. A fresh data directory per run and checkout.
//
//   npx tsx bench/throughput.ts [--budget 300] [--synth-n 20] [--synth-env durations] [--rounds 1] DIR [DIR ...]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isRecord } from '../src/util/guards.js';
import { table } from '../src/util/table.js';

const { values, positionals } = parseArgs({
  options: {
    budget: { type: 'string', default: '300' },
    'synth-n': { type: 'string', default: '20' },
    'synth-env': { type: 'string', default: 'durations' },
    rounds: { type: 'string', default: '1' },
    'skip-train': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const checkouts = (positionals.length ? positionals : ['.']).map((d) => resolve(d));
const rounds = Number(values.rounds);

interface Row {
  checkout: string;
  round: number;
  trainMin?: number;
  rollouts?: number;
  evalRollouts?: number;
  synthMin: number;
  candidates: number;
  valid: number;
}

function frognano(dir: string, args: string[]): { ms: number; stdout: string } {
  const t0 = performance.now();
  const res = spawnSync(process.execPath, [join(dir, 'bin', 'frognano.js'), ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (res.status !== 0) throw new Error(`${dir}: frognano ${args.join(' ')} failed (${res.status}):\n${res.stderr.slice(-2000)}`);
  return { ms, stdout: res.stdout };
}

const rows: Row[] = [];
for (let round = 1; round <= rounds; round++) {
  for (const dir of checkouts) {
    const data = mkdtempSync(join(tmpdir(), 'fn-throughput-'));
    try {
      const row: Row = { checkout: dir, round, synthMin: 0, candidates: 0, valid: 0 };
      if (!values['skip-train']) {
        console.error(`${dir} (round ${round}): train --budget ${values.budget} --time-limit 0 ...`);
        const train = frognano(dir, ['train', '--data-dir', data, '--time-limit', '0', '--budget', values.budget!]);
        const metrics = readFileSync(join(data, 'runs', 'default', 'metrics.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l): unknown => JSON.parse(l));
        const num = (m: unknown, k: string) => (isRecord(m) && typeof m[k] === 'number' ? m[k] : 0);
        row.trainMin = train.ms / 60_000;
        row.rollouts = num(metrics.at(-1), 'rollouts');
        row.evalRollouts = metrics.reduce((a: number, m) => a + num(m, 'heldOutAttempts'), 0);
      }
      console.error(`${dir} (round ${round}): synth --env ${values['synth-env']} --n ${values['synth-n']} ...`);
      const synth = frognano(dir, [
        'synth',
        '--data-dir',
        data,
        '--env',
        values['synth-env']!,
        '--n',
        values['synth-n']!,
        '--strategy',
        'procedural',
        '--json',
      ]);
      const stats: unknown = JSON.parse(synth.stdout);
      if (!isRecord(stats) || !Array.isArray(stats.tasks) || !isRecord(stats.byStrategy)) throw new Error(`${dir}: synth --json printed no statistics`);
      row.synthMin = synth.ms / 60_000;
      row.valid = stats.tasks.length;
      row.candidates = Object.values(stats.byStrategy).reduce(
        (a: number, st) => a + (isRecord(st) && typeof st.candidates === 'number' ? st.candidates : 0),
        0,
      );
      rows.push(row);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  }
}

const fmt = (n: number | undefined, d = 1) => (n === undefined ? '-' : n.toFixed(d));
console.log(
  table(
    ['checkout', 'round', 'train min', 'rollouts (budget)', 'rollouts/min', 'held-out attempts', 'synth min', 'valid/candidates', 'valid tasks/min'],
    rows.map((r) => [
      r.checkout,
      String(r.round),
      fmt(r.trainMin, 2),
      r.rollouts === undefined ? '-' : String(r.rollouts),
      r.rollouts === undefined ? '-' : `${fmt(r.rollouts / r.trainMin!)} (${r.rollouts}/${fmt(r.trainMin, 2)} min)`,
      r.evalRollouts === undefined ? '-' : String(r.evalRollouts),
      fmt(r.synthMin, 2),
      `${r.valid}/${r.candidates}`,
      `${fmt(r.valid / r.synthMin)} (${r.valid}/${fmt(r.synthMin, 2)} min)`,
    ]),
  ),
);
