#!/usr/bin/env node
// Entry point: runs the compiled CLI, rebuilt first in a checkout whose
// sources changed since the last build (bin/build.js).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build.js';

const root = fileURLToPath(new URL('..', import.meta.url));
if (buildIfStale(root, (line) => console.error(line)) !== 0) process.exit(1);
const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(compiled))) {
  console.error('frognano: the compiled CLI is missing (dist/). Run `npm run build` in the frognano package.');
  process.exit(1);
}
const { main } = await import(compiled.href);
process.exitCode = await main(process.argv.slice(2));
