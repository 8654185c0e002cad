// TAP 13/14 with indented subtests, as node:test's tap reporter writes it.
// Leaf test points are tests; a test point with children is a suite, and its
// name becomes part of its children's ids: "suite > nested > case".
// tape writes flat TAP instead: a "# name" comment per test, then one point
// per assertion, named by the assertion ("should be strictly equal"). There
// the test is the comment's group, failed if any of its assertions failed,
// so ids are test names and do not shift when an assertion is added.
// node-tap appends its timing to each point as a directive ("ok 1 - adds #
// time=12.3ms"); names go through stableTestName so ids stay the same run to
// run. node:test's and tape's timings are in YAML blocks and comments, not names.
import { dedupeIds, firstLines, type ParsedReport, stableTestName, type TestResult, type TestStatus } from './types.js';

interface Point {
  ok: boolean;
  name: string;
  /** Announced by a "# Subtest:" line: a test or suite. node-tap's assertions are not. */
  announced?: boolean;
  directive?: 'skip' | 'todo';
  yaml: Record<string, string>;
  children: Point[];
}

const POINT = /^(not )?ok\b(?:\s+\d+)?(?:\s+-)?\s?(.*)$/;

/** Splits "name # SKIP reason" at the first unescaped " # " directive. */
function splitDirective(rest: string): { name: string; directive?: 'skip' | 'todo' } {
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '\\') {
      i++;
      continue;
    }
    if (rest[i] === '#' && (i === 0 || rest[i - 1] === ' ')) {
      const d = rest
        .slice(i + 1)
        .trim()
        .toLowerCase();
      const name = rest.slice(0, i).trimEnd();
      if (d.startsWith('skip')) return { name, directive: 'skip' };
      if (d.startsWith('todo')) return { name, directive: 'todo' };
      return { name: rest };
    }
  }
  return { name: rest };
}

function unescape(name: string): string {
  return name.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/** Reads the flat keys of a YAML diagnostic block; block scalars are joined. */
function readYaml(lines: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  let key = '';
  let baseIndent = -1;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (baseIndent === -1) baseIndent = indent;
    const m = /^([A-Za-z_]+):\s?(.*)$/.exec(line.trim());
    if (indent === baseIndent && m) {
      key = m[1]!;
      out[key] = m[2]!.replace(/^\|-?$/, '').replace(/^'(.*)'$/, '$1');
    } else if (key) {
      out[key] = (out[key] ? `${out[key]}\n` : '') + line.trim();
    }
  }
  return out;
}

/** A failure's message: the point's own name, then what its YAML block says (error, expected and actual, diff, ava's details). */
function failureText(name: string, yaml: Record<string, string>): string {
  const parts = [name, yaml.error ?? yaml.message ?? ''];
  if (yaml.expected !== undefined || yaml.actual !== undefined) parts.push(`expected: ${yaml.expected ?? ''}`, `actual: ${yaml.actual ?? ''}`);
  parts.push(yaml.diff ?? '', yaml.details ?? '', yaml.failureType && !yaml.error ? yaml.failureType : '');
  return firstLines(parts.filter((x) => x && x.trim()).join('\n'));
}

function statusOf(p: Point): TestStatus {
  if (p.directive) return 'skipped';
  return p.ok ? 'passed' : 'failed';
}

/** node-tap's assertions: points inside a subtest that no "# Subtest:" line announced, with nothing below them. */
const isAssertion = (p: Point) => !p.announced && p.children.length === 0;

function flatten(points: Point[], prefix: string[], out: TestResult[]): void {
  for (const p of points) {
    const path = [...prefix, p.name];
    const duration = Number(p.yaml.duration_ms);
    const base = Number.isFinite(duration) ? { durationMs: duration } : {};
    // node-tap: a subtest holding only assertions is one test, failed if any of them failed.
    if (p.children.length > 0 && p.children.every(isAssertion)) {
      const failed = p.children.find((c) => !c.ok && !c.directive);
      const status: TestStatus = p.directive ? 'skipped' : failed || !p.ok ? 'failed' : 'passed';
      const message = status === 'failed' ? (failed ? failureText(failed.name, failed.yaml) : failureText('', p.yaml)) : undefined;
      out.push({ id: path.join(' > '), status, ...base, ...(message ? { message } : {}) });
      continue;
    }
    if (p.children.length > 0) {
      // Assertions beside subtests (node-tap's top-level t.equal in a file) count only when one fails, as the group's own failure.
      const loose = p.children.filter(isAssertion);
      if (loose.length && loose.length < p.children.length) {
        const bad = loose.find((c) => !c.ok && !c.directive);
        if (bad) out.push({ id: path.join(' > '), status: 'failed', message: firstLines(bad.name), ...base });
        // A skipped subtest is printed as a bare point with its directive, never announced.
        for (const c of loose) if (c.directive) out.push({ id: [...path, c.name].join(' > '), status: 'skipped' });
        flatten(
          p.children.filter((c) => !isAssertion(c)),
          path,
          out,
        );
        continue;
      }
      flatten(p.children, path, out);
      // A group that failed for its own reason (a hook, a throw in its body) is recorded too.
      const own = p.yaml.failureType;
      if (!p.ok && !p.directive && own && own !== 'subtestsFailed') {
        out.push({ id: path.join(' > '), status: 'error', message: firstLines(p.yaml.error ?? own), ...base });
      }
      continue;
    }
    if (p.yaml.type === 'suite' && p.ok) continue; // an empty suite holds no test
    const status = p.yaml.type === 'suite' ? 'error' : statusOf(p);
    // node:test names the error; ava and others put it under message and details.
    const message = p.ok ? undefined : failureText('', p.yaml);
    const file = p.yaml.location?.replace(/:\d+:\d+$/, '');
    out.push({ id: path.join(' > '), status, ...base, ...(message ? { message } : {}), ...(file ? { file } : {}) });
  }
}

export function parseTap(text: string): ParsedReport {
  const lines = text.split(/\r?\n/);
  // pending[d] collects finished test points at depth d until their parent closes.
  const pending: Point[][] = [[]];
  const openNames: string[] = [];
  // Whether the next point at a depth was announced by "# Subtest:" (node:test announces every test, node-tap no assertion).
  const announced: boolean[] = [];
  const structured = lines.some((l) => /^\s*# Subtest: /.test(l));
  let declaredTotal: number | undefined;
  let sawTap = false;
  // Old node-tap buffers a subtest: "ok 1 - name {", its points below, then "}" (children after the parent, not before).
  const buffered: (Point | undefined)[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    const depth = Math.floor(indent / 4);
    if (/^TAP version \d+/.test(body)) sawTap = true;
    const total = /^# tests (\d+)$/.exec(body);
    if (total && depth === 0) declaredTotal = Number(total[1]);
    const sub = /^# Subtest: (.*)$/.exec(body);
    if (sub && indent % 4 === 0) {
      openNames[depth] = stableTestName(unescape(sub[1]!));
      announced[depth] = true;
    }
    if (body === '}' && indent % 4 === 0 && buffered[depth]) {
      buffered[depth]!.children = pending[depth + 1] ?? [];
      pending[depth + 1] = [];
      buffered[depth] = undefined;
      continue;
    }
    const m = POINT.exec(body);
    if (!m || indent % 4 !== 0) continue;
    sawTap = true;
    const opensBlock = /\s\{$/.test(m[2] ?? '');
    const { name, directive } = splitDirective((m[2] ?? '').replace(/\s\{$/, ''));
    // A YAML diagnostic block may follow, indented two more spaces.
    const yamlLines: string[] = [];
    if (lines[i + 1]?.trim() === '---') {
      let j = i + 2;
      while (j < lines.length && lines[j]!.trim() !== '...') yamlLines.push(lines[j++]!);
      i = j;
    }
    while (pending.length <= depth + 1) pending.push([]);
    const point: Point = {
      ok: !m[1],
      name: stableTestName(unescape(name)),
      // Inside a buffered block a point is an assertion unless it opens a block of its own.
      announced: depth > 0 && buffered[depth - 1] ? opensBlock : !structured || depth === 0 || announced[depth] === true,
      ...(directive ? { directive } : {}),
      yaml: readYaml(yamlLines),
      children: pending[depth + 1]!,
    };
    pending[depth + 1] = [];
    pending[depth]!.push(point);
    announced[depth] = false;
    if (opensBlock) buffered[depth] = point;
  }
  if (!sawTap) throw new Error('not a TAP report: no TAP version line and no test points');
  // Points left at deeper levels belong to a parent that never closed (the
  // runner crashed): keep them under that parent's name.
  for (let d = pending.length - 1; d > 0; d--) {
    if (pending[d]!.length === 0) continue;
    pending[d - 1]!.push({ ok: false, name: openNames[d - 1] ?? '(unfinished)', yaml: { failureType: 'subtestsFailed' }, children: pending[d]! });
  }
  const tests: TestResult[] = [];
  flatten(pending[0]!, [], tests);
  const grouped = tapeGroups(lines);
  return { tests: dedupeIds(grouped ?? tests), ...(declaredTotal !== undefined ? { declaredTotal } : {}) };
}

/** Summary comments every TAP producer may print (node-tap's "# time=1.2s" too); not test names. */
const SUMMARY = /^# (?:tests|suites|pass|fail|cancelled|skipped|skip|todo|duration_ms|ok|not ok)\b|^# time=/;

/**
 * tape's flat output, grouped by its "# name" comments; null when the
 * stream is not shaped so (it has subtests, or no such comment).
 */
function tapeGroups(lines: string[]): TestResult[] | null {
  if (lines.some((l) => /^\s*# Subtest: /.test(l))) return null;
  const groups: { name: string; statuses: TestStatus[]; message?: string; detailed?: boolean }[] = [];
  let inYaml = false;
  let yaml: string[] | null = null; // the block of the group's first failure, kept for its message
  for (const line of lines) {
    if (line.trim() === '---') inYaml = true;
    if (inYaml) {
      if (line.trim() === '...') {
        inYaml = false;
        const g = groups[groups.length - 1];
        if (yaml && g?.message !== undefined && !g.detailed) {
          g.message = failureText(g.message, readYaml(yaml));
          g.detailed = true;
        }
        yaml = null;
      } else if (line.trim() !== '---') yaml?.push(line);
      continue;
    }
    if (/^# /.test(line) && !SUMMARY.test(line)) {
      // tape announces a skipped subtest as "# SKIP name", with no assertion under it.
      const skip = /^# SKIP (.*)$/.exec(line);
      groups.push({ name: stableTestName((skip ? skip[1]! : line.slice(2)).trim()), statuses: skip ? ['skipped'] : [] });
      continue;
    }
    const m = POINT.exec(line);
    if (!m || !groups.length) continue;
    const { name, directive } = splitDirective(m[2] ?? '');
    const status: TestStatus = directive ? 'skipped' : m[1] ? 'failed' : 'passed';
    const g = groups[groups.length - 1]!;
    g.statuses.push(status);
    if (status === 'failed' && g.message === undefined) {
      g.message = unescape(name);
      yaml = [];
    }
  }
  if (groups.length === 0) return null;
  // A group with no assertion of its own is a parent of subtests (each is its own group), or a test with nothing to check:
  // tape reports a test that failed to end as a failing assertion, so an empty group hides no failure.
  return groups
    .filter((g) => g.statuses.length > 0)
    .map((g) => {
      const status: TestStatus = g.statuses.includes('failed')
        ? 'failed'
        : g.statuses.length && g.statuses.every((s) => s === 'skipped')
          ? 'skipped'
          : g.statuses.length
            ? 'passed'
            : 'error';
      return { id: g.name, status, ...(g.message ? { message: g.message } : {}) };
    });
}
