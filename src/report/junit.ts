// JUnit XML (pytest and most other runners). With pytest's xunit1 family each
// testcase carries its file, and ids match pytest node ids:
// tests/test_a.py::TestX::test_y.
import { dedupeIds, firstLines, type ParsedReport, stableTestName, type TestResult, type TestStatus } from './types.js';
import { parseXml, walk, type XmlElement } from './xml.js';

function testId(tc: XmlElement): { id: string; file?: string } {
  // Some reporters append the run's timing to the name ("adds (12ms)"); strip it so the id is the same every run.
  const name = stableTestName(tc.attrs.name ?? '(unnamed)');
  const classname = tc.attrs.classname ?? '';
  const file = tc.attrs.file;
  if (file && /\.py$/.test(file)) {
    const module = file.replace(/\.py$/, '').split('/').join('.');
    const rest = classname.startsWith(module) ? classname.slice(module.length).replace(/^\./, '') : '';
    const parts = [file, ...(rest ? rest.split('.') : []), name];
    return { id: parts.join('::'), file };
  }
  if (!classname) return { id: name, ...(file ? { file } : {}) };
  // Without a file attribute, pytest's dotted classname still maps to a path guess.
  return { id: `${classname}::${name}`, ...(file ? { file } : {}) };
}

function status(tc: XmlElement): { status: TestStatus; message?: string } {
  for (const child of tc.children) {
    const text = child.attrs.message ? `${child.attrs.message}\n${child.text}` : child.text;
    if (child.name === 'failure') return { status: 'failed', message: firstLines(text) };
    if (child.name === 'error') return { status: 'error', message: firstLines(text) };
    if (child.name === 'skipped') return { status: 'skipped', message: firstLines(text) };
  }
  return { status: 'passed' };
}

export function parseJunit(xml: string): ParsedReport {
  const doc = parseXml(xml);
  const tests: TestResult[] = [];
  let declared: number | undefined;
  for (const el of walk(doc)) {
    if (el.name === 'testsuite' && el.attrs.tests !== undefined) {
      declared = (declared ?? 0) + Number(el.attrs.tests);
    }
    if (el.name !== 'testcase') continue;
    const { id, file } = testId(el);
    const s = status(el);
    const time = el.attrs.time !== undefined ? Number(el.attrs.time) * 1000 : undefined;
    tests.push({
      id,
      status: s.status,
      ...(time !== undefined && Number.isFinite(time) ? { durationMs: time } : {}),
      ...(s.message ? { message: s.message } : {}),
      ...(file ? { file } : {}),
    });
  }
  if (!doc.children.some((c) => c.name === 'testsuites' || c.name === 'testsuite')) {
    throw new Error('not a JUnit report: no <testsuites> or <testsuite> element');
  }
  return { tests: dedupeIds(tests), ...(declared !== undefined ? { declaredTotal: declared } : {}) };
}
