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

function statusOf(p: Point): TestStatus {
  if (p.directive) return 'skipped';
  return p.ok ? 'passed' : 'failed';
}

function flatten(points: Point[], prefix: string[], out: TestResult[]): void {
  for (const p of points) {
    const path = [...prefix, p.name];
    const duration = Number(p.yaml.duration_ms);
    const base = Number.isFinite(duration) ? { durationMs: duration } : {};
    if (p.children.length > 0) {
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
    const message = p.ok ? undefined : firstLines(p.yaml.error ?? p.yaml.failureType ?? '');
    const file = p.yaml.location?.replace(/:\d+:\d+$/, '');
    out.push({ id: path.join(' > '), status, ...base, ...(message ? { message } : {}), ...(file ? { file } : {}) });
  }
}

export function parseTap(text: string): ParsedReport {
  const lines = text.split(/\r?\n/);
  // pending[d] collects finished test points at depth d until their parent closes.
  const pending: Point[][] = [[]];
  const openNames: string[] = [];
  let declaredTotal: number | undefined;
  let sawTap = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = line.length - line.trimStart().length;
    const body = line.trim();
    const depth = Math.floor(indent / 4);
    if (/^TAP version \d+/.test(body)) sawTap = true;
    const total = /^# tests (\d+)$/.exec(body);
    if (total && depth === 0) declaredTotal = Number(total[1]);
    const sub = /^# Subtest: (.*)$/.exec(body);
    if (sub && indent % 4 === 0) openNames[depth] = stableTestName(unescape(sub[1]!));
    const m = POINT.exec(body);
    if (!m || indent % 4 !== 0) continue;
    sawTap = true;
    const { name, directive } = splitDirective(m[2] ?? '');
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
      ...(directive ? { directive } : {}),
      yaml: readYaml(yamlLines),
      children: pending[depth + 1]!,
    };
    pending[depth + 1] = [];
    pending[depth]!.push(point);
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
  const groups: { name: string; statuses: TestStatus[]; message?: string }[] = [];
  let inYaml = false;
  for (const line of lines) {
    if (line.trim() === '---') inYaml = true;
    if (inYaml) {
      if (line.trim() === '...') inYaml = false;
      continue;
    }
    if (/^# /.test(line) && !SUMMARY.test(line)) {
      groups.push({ name: stableTestName(line.slice(2).trim()), statuses: [] });
      continue;
    }
    const m = POINT.exec(line);
    if (!m || !groups.length) continue;
    const { name, directive } = splitDirective(m[2] ?? '');
    const status: TestStatus = directive ? 'skipped' : m[1] ? 'failed' : 'passed';
    const g = groups[groups.length - 1]!;
    g.statuses.push(status);
    if (status === 'failed') g.message ??= unescape(name);
  }
  if (groups.length === 0) return null;
  return groups.map((g) => {
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
