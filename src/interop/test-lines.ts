// The environment's test run as a shell line whose output is one
// "[PASSED] id" or "[FAILED] id" line per test (the shape swebench's
// parse_log_jest_json reads), with the ids FrogNano's tasks list: the
// runner's report goes to a file and frognano_reports.py, written beside it
// from a here-document, reads it. The line exits with the runner's code.
//
// Before it, the drop step (frognano_drop.py): what the verifier drops from
// an agent's change (tests, runner and interpreter configuration, links,
// the dependency layer) is put back as the base commit has it, compared
// with a copy of the repository the image keeps outside the work tree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EnvironmentSpec } from '../env/spec.js';
import { globToRegExp } from '../util/glob.js';
import { exportAssetsDir } from '../util/paths.js';
import { shellQuote } from '../util/shell.js';
import { RUNNER_FILES } from '../verifier/changes.js';
import { inImage } from './image.js';

/** Where the image keeps the drop step's helper, its copy of the git repository and the files setup made: outside the work tree, where no patch reaches. */
export const DROP_STATE = '/opt/frognano';

/** The image's build step after setup: the helper written from base64 (no build context needed), then the built state recorded. */
export function dropRecordCommand(workdir: string): string {
  const helper = readFileSync(join(exportAssetsDir, 'frognano_drop.py')).toString('base64');
  return `mkdir -p ${DROP_STATE} && echo ${helper} | base64 -d > ${DROP_STATE}/drop.py && python3 -I -S ${DROP_STATE}/drop.py record ${workdir} ${DROP_STATE}`;
}

/** The line that drops, before the tests run, what the verifier drops (src/verifier/changes.ts); a refusal ends the script there. */
export function dropLine(spec: EnvironmentSpec, hidden: readonly string[], base: string, workdir: string): string {
  const rules = {
    tests: spec.testPaths.map((g) => globToRegExp(g).source),
    runner: RUNNER_FILES.map((g) => globToRegExp(g).source),
    hidden: [...hidden].sort(),
    layer: spec.layer,
  };
  return `python3 -I -S ${DROP_STATE}/drop.py drop ${workdir} ${DROP_STATE} ${base} ${shellQuote(JSON.stringify(rules))} || exit 1`;
}

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
