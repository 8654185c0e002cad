// Before `npm test`: the tests need the development dependencies (the type
// checker's plugins, the linter, the formatter, tsx, the Qwen3 tokenizer,
// playwright-core...), which `npm ci --omit=dev` (the README's install for
// the main job alone) leaves out. Installs them from the lockfile when any is
// missing, saying so; does nothing otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const missing = Object.keys(pkg.devDependencies ?? {}).filter((name) => !existsSync(join('node_modules', name, 'package.json')));
if (missing.length) {
  console.error(`npm test: installing the development dependencies the tests need (${missing.length} missing, e.g. ${missing.slice(0, 3).join(', ')})`);
  const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
  const res = spawnSync(npm[0], [...npm.slice(1), 'install', '--include=dev', '--no-save', '--no-audit', '--no-fund'], { stdio: 'inherit' });
  process.exitCode = res.status ?? 1;
}
