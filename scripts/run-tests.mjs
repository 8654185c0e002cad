// Runs every tests/**/*.test.ts through Node's built-in test runner (via tsx).
// Node 20's `--test` does not expand globs or find .ts files, so list them here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return find(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const filter = process.argv[2];
const files = find('tests')
  .filter((f) => !filter || f.includes(filter))
  .sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
