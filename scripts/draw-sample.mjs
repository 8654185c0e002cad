#!/usr/bin/env node
// Seeded, reproducible sample of public repositories for measuring `env add` (no hand-picking).
// Rule: pools = npm's 1,000 most-downloaded packages (ties by name) and PyPI's ranks 1..1000.
// Draw order = sort each pool by sha256("frognano-53:" + ecosystem + ":" + name) hex ascending.
// Each draw resolves to a GitHub repo (npm: `npm view NAME repository`; PyPI: Debian python3-NAME Homepage/Source);
// no-repo, duplicate (repo already drawn, npm walked first), no-snapshot (fetch refused/failed) and no-tests
// (no real scripts.test / no tests dir or test_*.py at HEAD) draws are replaced by the next; stop at 65 npm + 45 PyPI ok.
// Usage: node scripts/draw-sample.mjs order [N]            resolve the first N draws per ecosystem, list repos to fetch
//        node scripts/draw-sample.mjs nosnap OWNER/REPO WHY  record that fetch gave no snapshot
//        node scripts/draw-sample.mjs check                walk /work/.mirror, write bench/env-sample/sample.tsv etc.
//        add --want npm=N,pypi=M --out TSV --local FILE to order/check for a longer walk (the catalogue draw)
import { createHash } from 'node:crypto';
import { execFileSync, execFile } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';

const PKG = '/work/.library/env/packages';
const MIRROR = '/work/.mirror';
const CACHE = 'scratch/sample-cache.json';
const NOSNAP = 'scratch/sample-nosnap.json';
// `--want npm=N,pypi=M` walks further down the same seeded order (the catalogue draw); the sample is the default.
const flag = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const WANT = Object.fromEntries(
  flag('want', 'npm=65,pypi=45')
    .split(',')
    .map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])]),
);
const OUT_TSV = flag('out', 'bench/env-sample/sample.tsv');
const OUT_LOCAL = flag('local', 'scratch/sample-local.txt');
const PLACEHOLDER = 'echo "Error: no test specified" && exit 1';
const run = promisify(execFile);
const readJson = (f, d) => (existsSync(f) ? JSON.parse(readFileSync(f, 'utf8')) : d);
const sha = (s) => createHash('sha256').update(s).digest('hex');

function tsv(file) {
  return readFileSync(`${PKG}/${file}`, 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split('\t'));
}
function pools() {
  const npm = tsv('npm.tsv')
    .map((r) => ({ name: r[0], rank: Number(r[2]) || 0 }))
    .sort((a, b) => b.rank - a.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, 1000);
  const pypi = tsv('pypi.tsv')
    .filter((r) => r[3] !== '' && Number(r[3]) >= 1 && Number(r[3]) <= 1000)
    .map((r) => ({ name: r[0], rank: Number(r[3]) }));
  const order = (eco, pool) =>
    pool
      .map((p) => ({ eco, ...p, key: sha(`frognano-53:${eco}:${p.name}`) }))
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .map((p, i) => ({ ...p, index: i + 1 }));
  return { npm: order('npm', npm), pypi: order('pypi', pypi) };
}

// Any github URL form -> https://github.com/OWNER/REPO (null if not GitHub).
function normGithub(url) {
  if (!url) return null;
  let u = String(url).trim();
  if (/^[\w.-]+\/[\w.-]+$/.test(u)) u = `github:${u}`; // npm shorthand "owner/repo"
  u = u
    .replace(/^github:/, 'https://github.com/')
    .replace(/^git\+/, '')
    .replace(/^git@github\.com:/, 'https://github.com/');
  const m = u.match(/^(?:https?|git|ssh):\/\/(?:[^@/]+@)?(?:www\.)?github\.com[:/]+([\w.-]+)\/([\w.-]+?)(?:\.git)?(?:[/#?].*)?$/i);
  return m ? `https://github.com/${m[1]}/${m[2]}` : null;
}

async function resolveNpm(name) {
  try {
    const { stdout } = await run('npm', ['view', name, 'repository', '--json'], { timeout: 60000 });
    const v = stdout.trim() ? JSON.parse(stdout) : null;
    const r = Array.isArray(v) ? v[v.length - 1] : v;
    const raw = typeof r === 'string' ? r : r?.url;
    return { raw: raw ?? '', url: normGithub(raw), directory: (typeof r === 'object' && r?.directory) || '' };
  } catch (e) {
    const error = String(e.stderr || e.message).split('\n')[0];
    return { raw: '', url: null, directory: '', error: error.slice(0, 120) };
  }
}
async function resolvePypi(name) {
  const lc = name.toLowerCase();
  const cands = [...new Set([lc, lc.replace(/_/g, '-'), lc.replace(/^python-/, ''), lc.replace(/_/g, '-').replace(/^python-/, '')])];
  for (const c of cands) {
    let out = '';
    try {
      ({ stdout: out } = await run('apt-cache', ['show', `python3-${c}`]));
    } catch {
      continue;
    }
    for (const line of out.split('\n')) {
      const m = line.match(/^(Homepage|Source):\s*(\S+)/);
      const url = m && normGithub(m[2]);
      if (url) return { raw: m[2], url, directory: '', deb: `python3-${c}` };
    }
    return { raw: '', url: null, directory: '', deb: `python3-${c}` };
  }
  return { raw: '', url: null, directory: '', deb: '' };
}

async function resolveAll(draws, n) {
  const cache = readJson(CACHE, {});
  const todo = [];
  for (const eco of ['npm', 'pypi']) for (const d of draws[eco].slice(0, n)) if (!cache[`${eco}:${d.name}`]) todo.push(d);
  let i = 0;
  const worker = async () => {
    while (i < todo.length) {
      const d = todo[i++];
      cache[`${d.eco}:${d.name}`] = d.eco === 'npm' ? await resolveNpm(d.name) : await resolvePypi(d.name);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  mkdirSync('scratch', { recursive: true });
  writeFileSync(CACHE, JSON.stringify(cache, null, 1));
  return cache;
}

const mirrors = () =>
  new Map(
    (existsSync(MIRROR) ? readdirSync(MIRROR) : [])
      .filter((d) => d.includes('+'))
      .map((d) => [d.toLowerCase(), [`${MIRROR}/${d}/repo`, `${MIRROR}/${d}/repo/.git`].find((g) => existsSync(`${g}/HEAD`))])
      .filter(([, g]) => g),
  );
const slug = (url) => url.replace('https://github.com/', '');
const git = (dir, ...a) => execFileSync('git', ['--git-dir', dir, ...a], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });

function testCheck(eco, dir, sub) {
  if (eco === 'npm') {
    const p = `${sub ? `${sub.replace(/^\.?\/+|\/+$/g, '')}/` : ''}package.json`;
    let pj;
    try {
      pj = JSON.parse(git(dir, 'show', `HEAD:${p}`));
    } catch {
      return [false, `no readable ${p} at HEAD`];
    }
    const t = pj.scripts?.test;
    if (typeof t !== 'string' || !t.trim()) return [false, `${p} has no scripts.test`];
    if (t.trim() === PLACEHOLDER) return [false, `${p} scripts.test is npm's placeholder`];
    return [true, ''];
  }
  const files = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n');
  const hit = files.find((f) => /(^|\/)tests?\//.test(f) || /(^|\/)(test_[^/]*|[^/]*_test)\.py$/.test(f));
  return hit ? [true, ''] : [false, 'no tests/ or test/ dir, no test_*.py or *_test.py'];
}

const noRepo = (eco, deb) => (eco === 'npm' ? 'no repository field' : deb ? `${deb} has no GitHub Homepage/Source` : 'no python3-* Debian package');

// Walks the draws in order; returns rows and the repos still to fetch (when the walk cannot yet finish).
function walk(draws, cache, nosnap, doCheck) {
  const rows = [];
  const seen = new Map();
  const need = [];
  const done = {};
  for (const eco of ['npm', 'pypi']) {
    let ok = 0;
    for (const d of draws[eco]) {
      if (ok >= WANT[eco]) break;
      const r = cache[`${eco}:${d.name}`];
      if (!r) {
        need.push(`resolve ${eco}:${d.name}`);
        break;
      }
      const row = { eco, index: d.index, name: d.name, rank: d.rank, url: r.url || '', dir: r.directory || '', commit: '', status: '', note: '' };
      rows.push(row);
      if (!r.url) {
        row.status = 'no-repo';
        row.note = r.error || (r.raw && `not GitHub: ${r.raw}`) || noRepo(eco, r.deb);
        continue;
      }
      const key = r.url.toLowerCase();
      if (seen.has(key)) {
        row.status = 'duplicate';
        row.note = `repo already drawn by ${seen.get(key)}`;
        continue;
      }
      seen.set(key, `${eco}:${d.name}`);
      if (nosnap[slug(r.url).toLowerCase()]) {
        row.status = 'no-snapshot';
        row.note = nosnap[slug(r.url).toLowerCase()];
        continue;
      }
      const dir = doCheck && doCheck.get(slug(r.url).toLowerCase().replace('/', '+'));
      // Not fetched yet: counted as ok for now, so `order` lists only the next repos to fetch.
      if (!dir) {
        need.push(`fetch github:${slug(r.url)}`);
        row.status = 'pending';
        ok++;
        continue;
      }
      row.commit = git(dir, 'rev-parse', 'HEAD').trim();
      row.mirror = dir;
      const [pass, why] = testCheck(eco, dir, row.dir);
      row.status = pass ? 'ok' : 'no-tests';
      row.note = why;
      if (pass) ok++;
    }
    done[eco] = ok;
  }
  return { rows, need, done };
}

const cmd = process.argv[2];
const draws = pools();
if (cmd === 'order') {
  let n = Number(process.argv[3]) || 100;
  let w;
  for (;;) {
    w = walk(draws, await resolveAll(draws, n), readJson(NOSNAP, {}), mirrors());
    if (!w.need.some((x) => x.startsWith('resolve')) || n >= 1000) break;
    n += 50;
  }
  for (const r of w.rows) console.log([r.eco, r.index, r.name, r.url || '-', r.dir, r.status].join('\t'));
  const f = w.need.filter((x) => x.startsWith('fetch'));
  console.log(f.length ? `# to fetch (${f.length}):\n${f.join('\n')}` : '# nothing to fetch: run `check`');
} else if (cmd === 'nosnap') {
  const ns = readJson(NOSNAP, {});
  ns[process.argv[3].toLowerCase()] = process.argv.slice(4).join(' ') || 'no snapshot';
  writeFileSync(NOSNAP, JSON.stringify(ns, null, 1));
} else if (cmd === 'check') {
  const { rows, need, done } = walk(draws, readJson(CACHE, {}), readJson(NOSNAP, {}), mirrors());
  if (need.length) {
    console.log(`incomplete (ok: npm ${done.npm}, pypi ${done.pypi}); still needed:\n${need.join('\n')}`);
    process.exit(1);
  }
  mkdirSync(OUT_TSV.replace(/\/[^/]*$/, ''), { recursive: true });
  const head = 'ecosystem\tdraw_index\tpackage\trank_or_downloads\trepository_url\tdirectory\tcommit\tstatus\tnote';
  writeFileSync(OUT_TSV, `${[head, ...rows.map((r) => [r.eco, r.index, r.name, r.rank, r.url, r.dir, r.commit, r.status, r.note].join('\t'))].join('\n')}\n`);
  const used = new Set();
  const local = [];
  for (const r of rows.filter((x) => x.status === 'ok')) {
    const name = slug(r.url).split('/')[1].toLowerCase();
    const base =
      name
        .replace(/[^a-z0-9-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 40) || 'repo';
    let s = base;
    for (let k = 2; used.has(`${r.eco}-${s}`); k++) s = `${base.slice(0, 39 - String(k).length)}-${k}`;
    used.add(`${r.eco}-${s}`);
    local.push(`${r.mirror} ${r.commit} ${r.eco}-${s}`);
  }
  writeFileSync(OUT_LOCAL, `${local.join('\n')}\n`);
  const counts = {};
  for (const r of rows) {
    counts[r.eco] ??= {};
    counts[r.eco][r.status] = (counts[r.eco][r.status] || 0) + 1;
  }
  console.log(JSON.stringify(counts));
} else {
  console.log('usage: node scripts/draw-sample.mjs order [N] | nosnap OWNER/REPO WHY | check');
}
