// JUnit XML (pytest and most other runners). With pytest's xunit1 family each
// testcase carries its file, and ids match pytest node ids:
// tests/test_a.py::TestX::test_y.
import { isAbsolute, relative } from 'node:path';
import { dedupeIds, firstLines, type ParsedReport, stableTestName, type TestResult, type TestStatus } from './types.js';
import { parseXml, walk, type XmlElement } from './xml.js';

function testId(tc: XmlElement, rootDir?: string): { id: string; file?: string } {
  // Some reporters append the run's timing to the name ("adds (12ms)"); strip it so the id is the same every run.
  const name = stableTestName(tc.attrs.name ?? '(unnamed)');
  const classname = tc.attrs.classname ?? '';
  const file = tc.attrs.file;
  if (file && /\.py$/.test(file)) {
    const module = file.replace(/\.py$/, '').split('/').join('.');
    if (classname === module || classname.startsWith(`${module}.`) || !classname) {
      const rest = classname.slice(module.length).replace(/^\./, '');
      return { id: [file, ...(rest ? rest.split('.') : []), name].join('::'), file };
    }
    // pytest's file attribute is where the function is defined: a test method
    // inherited from a base in tests/__init__.py or a helper module. The
    // classname still holds the collecting module and class.
    const own = fromClassname(classname);
    return { id: [own.file, ...own.classes, name].join('::'), file: own.file };
  }
  if (file && /\.[cm]?[jt]sx?$/.test(file)) {
    // mocha's xunit: the file, the suites' titles as one (joined by spaces), the test's title.
    const rel = rootDir && isAbsolute(file) ? relative(rootDir, file) : file;
    return { id: [rel, ...(classname ? [classname] : []), name].join(' > '), file: rel };
  }
  if (!classname) return { id: name, ...(file ? { file } : {}) };
  // Without a file attribute, pytest's dotted classname still maps to a path guess.
  return { id: `${classname}::${name}`, ...(file ? { file } : {}) };
}

/** `tests.test_a.TestX` → tests/test_a.py and [TestX]: module parts are lowercase, classes capitalised. */
function fromClassname(classname: string): { file: string; classes: string[] } {
  const parts = classname.split('.');
  let i = parts.findIndex((p) => /^[A-Z]/.test(p));
  if (i <= 0) i = parts.length;
  return { file: `${parts.slice(0, i).join('/')}.py`, classes: parts.slice(i) };
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

export function parseJunit(xml: string, rootDir?: string): ParsedReport {
  const doc = parseXml(xml);
  const tests: TestResult[] = [];
  let declared: number | undefined;
  for (const el of walk(doc)) {
    if (el.name === 'testsuite' && el.attrs.tests !== undefined) {
      declared = (declared ?? 0) + Number(el.attrs.tests);
    }
    if (el.name !== 'testcase') continue;
    const { id, file } = testId(el, rootDir);
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
