#!/usr/bin/env node
// Entry point: runs the compiled CLI (built by `npm ci` through the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(compiled))) {
  console.error('frognano: the compiled CLI is missing (dist/). Run `npm run build` in the frognano package.');
  process.exit(1);
}
const { main } = await import(compiled.href);
process.exitCode = await main(process.argv.slice(2));
