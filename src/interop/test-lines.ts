// The environment's test run as a shell line whose output is one
// "[PASSED] id" or "[FAILED] id" line per test (the shape swebench's
// parse_log_jest_json reads), with the ids FrogNano's tasks list: the
// runner's report goes to a file and frognano_reports.py, written beside it
// from a here-document, reads it. The line exits with the runner's code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentSpec } from '../env/spec.js';
import { exportAssetsDir } from '../util/paths.js';
import { shellQuote } from '../util/shell.js';
import { inImage } from './image.js';

const REPORT = '/tmp/frognano-report';
const READER = '/tmp/frognano_reports.py';

/** Lines that write the report reader into the container. */
export function readerLines(): string[] {
  const reader = readFileSync(join(exportAssetsDir, 'frognano_reports.py'), 'utf8');
  return [`cat > ${READER} <<'EOF_FROGNANO_READER'`, reader.replace(/\n$/, ''), 'EOF_FROGNANO_READER'];
}

/** The environment's variables, as export lines. */
export function envLines(spec: EnvironmentSpec): string[] {
  return Object.entries(spec.test.env).map(([k, v]) => `export ${k}=${shellQuote(v)}`);
}

/** One line: the test command (its output to a file), then the reader; it exits with the runner's code. */
export function testLine(spec: EnvironmentSpec, workdir: string): string {
  const argv = spec.test.command.map((a) => shellQuote(inImage(a.replaceAll('{report}', REPORT)))).join(' ');
  const file = spec.test.report.from === 'file' ? REPORT : `${REPORT}.out`;
  return `${argv} > ${REPORT}.out 2>&1; code=$?; python3 ${READER} ${spec.test.report.format} ${file} ${workdir}; (exit $code)`;
}

/** The runner's own output, for people reading the log (after the parsed part). */
export function outputTailLine(): string {
  return `tail -c 20000 ${REPORT}.out`;
}
