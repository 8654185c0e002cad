// `frognano env catalogue` and `env add --from-catalogue NAME`: public
// repositories pinned to a commit, with the figures of their last check.
import { catalogueEntry, cataloguePath, filterCatalogue, loadCatalogue, type CatalogueEntry } from '../env/catalogue.js';
import type { InferOptions } from '../env/infer.js';
import { table } from '../util/table.js';
import { UserError } from '../util/errors.js';
import { stringFlag } from './flags.js';
import type { CliContext } from './context.js';

/** What `env add` is given for a catalogue entry: its repository, commit and the flags it records. */
export function catalogueAdd(name: string): { target: string; options: InferOptions & { ref: string } } {
  const e = catalogueEntry(name);
  return {
    target: e.git,
    options: {
      name: e.name,
      ref: e.commit,
      language: e.language,
      runner: e.runner,
      ...(e.flags?.testCommand ? { testCommand: e.flags.testCommand } : {}),
      ...(e.flags?.env ? { env: e.flags.env } : {}),
      ...(e.flags?.testPaths ? { testPaths: e.flags.testPaths } : {}),
    },
  };
}

export function listCatalogue(ctx: CliContext): number {
  const minYield = stringFlag(ctx.flags, 'min-yield');
  const y = minYield === undefined ? undefined : Number(minYield);
  if (y !== undefined && !(y >= 0 && y <= 1))
    throw new UserError(`--min-yield ${minYield} is not a share between 0 and 1`, 'e.g. --min-yield 0.5 for entries where half the candidates became tasks');
  const all = loadCatalogue();
  const language = stringFlag(ctx.flags, 'language');
  const runner = stringFlag(ctx.flags, 'runner');
  const entries = filterCatalogue(all, { ...(language ? { language } : {}), ...(runner ? { runner } : {}), ...(y !== undefined ? { minYield: y } : {}) });
  if (ctx.flags.json) {
    ctx.out(JSON.stringify(entries, null, 2));
    return 0;
  }
  if (ctx.flags.markdown) {
    ctx.out(markdownTable(entries));
    return 0;
  }
  const rows = entries.map((e) => {
    const v = e.verified;
    return [
      e.name,
      e.language,
      e.runner,
      e.commit.slice(0, 10),
      e.flags ? Object.keys(e.flags).join(',') : '-',
      v ? (v.accepted ? 'accepted' : 'rejected') : 'unverified',
      v ? String(v.tests) : '',
      v ? `${v.valid}/${v.candidates}` : '',
      v ? `${v.referenceSolved}/${v.valid}` : '',
    ];
  });
  ctx.out(table(['name', 'language', 'runner', 'commit', 'flags', 'check', 'tests', 'valid/tried', 'fix solves'], rows));
  const shown = entries.length === all.length ? `${all.length} entries` : `${entries.length} of ${all.length} entries`;
  ctx.out(`\n${shown} in ${cataloguePath()}; add one with: frognano env add --from-catalogue NAME, or train on them with --envs catalogue:FILTER`);
  return 0;
}

/** The verification table of docs/catalogue.md, made from the catalogue file (its one source). */
function markdownTable(entries: CatalogueEntry[]): string {
  const head =
    '| entry | language | runner | commit | flags | tests | env check: runs (s), whole check (s) | procedural yield | reference fix solves |\n|---|---|---|---|---|---|---|---|---|';
  const rows = entries.map((e) => {
    const v = e.verified;
    const pct = v && v.candidates ? ` (${((100 * v.valid) / v.candidates).toFixed(1)}%)` : '';
    const flags = e.flags
      ? Object.entries(e.flags)
          .map(([k, val]) => `\`${k}\`: \`${JSON.stringify(val)}\``)
          .join('; ')
      : 'none';
    return `| [${e.name}](${e.git.replace(/\.git$/, '')}) | ${e.language} | ${e.runner} | \`${e.commit.slice(0, 12)}\` | ${flags} | ${v?.tests ?? ''} | ${v ? `${v.runSeconds.map((x) => x.toFixed(2)).join(' / ')}, ${v.checkSeconds.toFixed(1)}` : 'unverified'} | ${v ? `${v.valid}/${v.candidates}${pct}` : ''} | ${v ? `${v.referenceSolved}/${v.valid}` : ''} |`;
  });
  return [head, ...rows].join('\n');
}
