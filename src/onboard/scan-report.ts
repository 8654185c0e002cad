// What `env scan` prints and writes: the success rate with its Wilson
// interval (repositories this machine cannot install counted apart), tables
// by class and by runner, and catalogue entries for the repositories kept.
import { rate, wilson } from '../util/stats.js';
import { table } from '../util/table.js';
import { MACHINE_CLASSES, SCAN_CLASSES } from './scan-classes.js';
import type { ScanResult } from './scan.js';

export interface ScanSummary {
  total: number;
  kept: number;
  /** Repositories whose dependencies this machine can install: the rate's denominator. */
  installable: number;
  rate: string;
  interval: [number, number];
  byClass: Record<string, number>;
}

export function summarize(results: ScanResult[]): ScanSummary {
  const byClass: Record<string, number> = {};
  for (const r of results) byClass[r.class] = (byClass[r.class] ?? 0) + 1;
  const installable = results.filter((r) => !MACHINE_CLASSES.includes(r.class)).length;
  const kept = byClass.kept ?? 0;
  return { total: results.length, kept, installable, rate: rate(kept, installable), interval: wilson(kept, installable), byClass };
}

const MEANINGS: Record<string, string> = SCAN_CLASSES;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function summaryText(results: ScanResult[]): string {
  const s = summarize(results);
  const apart = results.length - s.installable;
  const lines = [
    `kept ${s.rate} of the repositories whose dependencies this machine can install (95% Wilson interval ${pct(s.interval[0])} to ${pct(s.interval[1])})` +
      (apart ? `; ${apart} more need packages this machine cannot install, counted apart` : ''),
    '',
    table(
      ['class', 'repositories', 'meaning'],
      Object.entries(s.byClass)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([c, n]) => [c, n, MEANINGS[c] ?? '']),
    ),
    '',
  ];
  const runners = new Map<string, ScanResult[]>();
  for (const r of results) {
    const key = `${r.language ?? '-'} / ${r.runner ?? '-'}`;
    runners.set(key, [...(runners.get(key) ?? []), r]);
  }
  lines.push(
    table(
      ['language / runner', 'kept', 'valid / candidates', 'fix solves'],
      [...runners.entries()]
        .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
        .map(([k, rs]) => {
          const sum = (f: (r: ScanResult) => number | undefined) => rs.reduce((a, r) => a + (f(r) ?? 0), 0);
          return [
            k,
            rate(rs.filter((r) => r.class === 'kept').length, rs.length),
            rate(
              sum((r) => r.valid),
              sum((r) => r.candidates),
            ),
            rate(
              sum((r) => r.referenceSolved),
              sum((r) => r.valid),
            ),
          ];
        }),
    ),
  );
  return lines.join('\n');
}

/** A catalogue entry (catalogue.ts's schema) for a kept repository; `git` is where it was cloned from. */
export function catalogueEntry(r: ScanResult, description: string) {
  return {
    name: r.name,
    git: r.target,
    commit: r.commit!,
    language: r.language!,
    runner: r.runner!,
    description,
    verified: {
      date: r.finishedAt.slice(0, 10),
      accepted: true,
      tests: r.tests ?? 0,
      runSeconds: r.runSeconds ?? [],
      checkSeconds: r.checkSeconds ?? 0,
      candidates: r.candidates ?? 0,
      valid: r.valid ?? 0,
      referenceSolved: r.referenceSolved ?? 0,
      notes: 'added with zero flags by env scan',
    },
  };
}
