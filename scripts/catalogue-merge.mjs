#!/usr/bin/env node
// Adds the repositories an `env scan` kept to catalogue/environments.json, under
// their public URLs. A scan of the seeded draw clones local snapshots of the
// repositories (this machine reaches no git host); the draw's TSV says which
// public repository each snapshot is, and the pinned commit is the same.
// Usage: node scripts/catalogue-merge.mjs [--draw TSV] SCAN_DIR...
//   --draw  the draw the scan lists came from (default bench/env-sample/catalogue-draw.tsv)
// An entry whose name or repository is in the catalogue already is left as it is;
// a later scan's entry for the same name replaces an earlier one.
import { readFileSync, writeFileSync, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const CATALOGUE = 'catalogue/environments.json';
const args = process.argv.slice(2);
const at = args.indexOf('--draw');
const drawFile = at >= 0 ? args.splice(at, 2)[1] : 'bench/env-sample/catalogue-draw.tsv';
if (args.length === 0) {
  console.error('usage: node scripts/catalogue-merge.mjs [--draw TSV] SCAN_DIR...');
  process.exit(2);
}

// Snapshot folder name (owner+repo, lower case) -> the draw's row.
const rows = new Map();
for (const line of readFileSync(drawFile, 'utf8').split('\n').slice(1)) {
  const [eco, , pkg, , url, dir, commit, status] = line.split('\t');
  if (status !== 'ok') continue;
  rows.set(url.replace('https://github.com/', '').replace('/', '+').toLowerCase(), { eco, pkg, url, dir, commit });
}

const catalogue = JSON.parse(readFileSync(CATALOGUE, 'utf8'));
const byRepo = new Map(catalogue.entries.map((e) => [e.git.replace(/\.git$/, '').toLowerCase(), e.name]));
const fromScan = new Map();
const skipped = [];
for (const scan of args) {
  const file = join(scan, 'catalogue.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run env scan to the end (it writes catalogue.json)`);
  for (const e of JSON.parse(readFileSync(file, 'utf8')).entries) {
    const key = /\/\.mirror\/([^/]+)\//.exec(e.git)?.[1]?.toLowerCase();
    const row = key && rows.get(key);
    if (!row) {
      skipped.push(`${e.name}: ${e.git} is not a snapshot of a repository in ${drawFile}`);
      continue;
    }
    if (row.commit !== e.commit) {
      skipped.push(`${e.name}: scanned at ${e.commit}, the draw pins ${row.commit}`);
      continue;
    }
    const owner = row.url.replace('https://github.com/', '');
    fromScan.set(e.name, {
      ...e,
      git: `${row.url}.git`,
      description: `${owner} (${row.eco} package ${row.pkg}, seeded draw)`,
    });
  }
}
let added = 0;
for (const [name, e] of fromScan) {
  const other = byRepo.get(e.git.replace(/\.git$/, '').toLowerCase());
  if ((other && other !== name) || catalogue.entries.some((x) => x.name === name && !/seeded draw/.test(x.description))) {
    skipped.push(`${name}: already in the catalogue${other ? ` as ${other}` : ''}`);
    continue;
  }
  const i = catalogue.entries.findIndex((x) => x.name === name);
  if (i >= 0) catalogue.entries[i] = e;
  else {
    catalogue.entries.push(e);
    added++;
  }
}
writeFileSync(`${CATALOGUE}.tmp`, `${JSON.stringify(catalogue, null, 2)}\n`);
renameSync(`${CATALOGUE}.tmp`, CATALOGUE);
const count = (k) => Object.entries(catalogue.entries.reduce((m, e) => ((m[e[k]] = (m[e[k]] ?? 0) + 1), m), {})).map(([v, n]) => `${v} ${n}`);
console.log(`${added} added, ${fromScan.size - added - skipped.filter((s) => /already/.test(s)).length} replaced; ${catalogue.entries.length} entries`);
console.log(`by language: ${count('language').join(', ')}`);
console.log(`by runner: ${count('runner').join(', ')}`);
for (const s of skipped) console.log(`skipped ${s}`);
