// Compiles src/ into dist/ when dist/ is missing or older than a source. In a
// checkout this runs before every command, so an edited source is never run
// stale; in an installed package there is no src/ and nothing to do.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), s.mtimeMs);
}

/** Builds `root`'s dist/ if stale; returns tsc's exit status (0 when nothing was needed). */
export function buildIfStale(root, say = () => {}) {
  if (!existsSync(join(root, 'src'))) return 0;
  const stamp = join(root, 'dist', '.built');
  const sources = Math.max(...['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((p) => newest(join(root, p))));
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= sources) return 0;
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    say('frognano: dist/ is older than src/, and TypeScript is not installed to rebuild it: run npm ci');
    return existsSync(join(root, 'dist')) ? 0 : 1;
  }
  const built = existsSync(join(root, 'dist', 'cli', 'main.js'));
  // One build at a time: a second command started meanwhile waits for it rather than writing dist/ beside it.
  const guard = join(root, 'dist', '.building');
  try {
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(guard, String(process.pid), { flag: 'wx' });
  } catch (err) {
    if (err.code === 'EEXIST' && Date.now() - statSync(guard).mtimeMs < 120_000) return waitFor(guard, built);
    if (err.code !== 'EEXIST') {
      say(`frognano: dist/ is older than src/ but cannot be rebuilt here (${err.code}); running the build that is there`);
      return built ? 0 : 1;
    }
    writeFileSync(guard, String(process.pid)); // a guard left by a build that died
  }
  try {
    say('frognano: building dist/ from src/ (sources changed since the last build)');
    const res = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    if (res.status === 0) writeFileSync(stamp, `${new Date().toISOString()}\n`);
    return res.status ?? 1;
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Waits (at most two minutes) for another process's build to end. */
function waitFor(guard, built) {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < 600 && existsSync(guard); i++) Atomics.wait(pause, 0, 0, 200);
  return built || existsSync(join(guard, '..', 'cli', 'main.js')) ? 0 : 1;
}
