// unittest has no machine-readable report of its own, and the standard
// library has no JUnit writer; this small runner (passed to Python with -c)
// runs `unittest` as the command line would and writes JUnit XML in the shape
// pytest's xunit1 family has, so ids read `tests/test_a.py::TestX::test_y`
// and held-back tests and honeypots find their definitions the same way.
//   argv: {python} {unittest-junit} {report} [unittest arguments, e.g. discover -s tests]

/** The placeholder a spec's command uses for `-c <script>`. */
export const UNITTEST_JUNIT = '{unittest-junit}';

export const UNITTEST_JUNIT_SCRIPT = String.raw`
import os, sys, time, traceback, unittest
from xml.sax.saxutils import escape, quoteattr
report, args = sys.argv[1], sys.argv[2:]
cases = []
def where(test):
    mod = sys.modules.get(type(test).__module__)
    path = getattr(mod, '__file__', None) or ''
    rel = os.path.relpath(path) if path else ''
    if rel.endswith('.py') and not rel.startswith('..'):
        return rel, rel[:-3].replace(os.sep, '.')
    return '', type(test).__module__
class Result(unittest.TextTestResult):
    def startTest(self, test):
        self._t0, self._status, self._text = time.monotonic(), None, ''
        super().startTest(test)
    def _set(self, test, status, err=None, text=''):
        if self._status in ('failure', 'error'): return
        self._status = status
        self._text = (text + '\n' if text and err is not None else '') + (self._exc_info_to_string(err, test) if err is not None else text)
    def stopTest(self, test):
        super().stopTest(test)
        file, module = where(test)
        status, text = self._status or 'passed', self._text
        dt = getattr(test, '_dt_test', None)
        if dt is not None:  # a doctest: named by its object, in the file that holds it
            f = os.path.relpath(dt.filename) if dt.filename else ''
            cases.append(('', dt.name, f if f.endswith('.py') and not f.startswith('..') else '', status, text, time.monotonic() - self._t0)); return
        if type(test).__name__ == '_FailedTest' or not hasattr(test, '_testMethodName'):
            cases.append(('', test.id(), '', status, text, 0.0)); return
        cases.append((module + '.' + type(test).__qualname__, test._testMethodName, file, status, text, time.monotonic() - self._t0))
    def addSuccess(self, test): super().addSuccess(test); self._set(test, 'passed')
    def addFailure(self, test, err): super().addFailure(test, err); self._set(test, 'failure', err)
    def addError(self, test, err): super().addError(test, err); self._set(test, 'error', err)
    def addSkip(self, test, reason): super().addSkip(test, reason); self._set(test, 'skipped', text=reason)
    def addExpectedFailure(self, test, err): super().addExpectedFailure(test, err); self._set(test, 'passed')
    def addUnexpectedSuccess(self, test): super().addUnexpectedSuccess(test); self._set(test, 'failure', text='unexpected success')
    def addSubTest(self, test, sub, err):
        super().addSubTest(test, sub, err)
        if err is not None: self._set(test, 'error' if not issubclass(err[0], test.failureException) else 'failure', err, str(sub))
class Runner(unittest.TextTestRunner):
    resultclass = Result
prog = unittest.main(module=None, argv=['python -m unittest'] + args, testRunner=Runner(verbosity=1), exit=False)
def case(c):
    classname, name, file, status, text, secs = c
    attrs = 'classname=%s name=%s %stime="%.3f"' % (quoteattr(classname), quoteattr(name), ('file=%s ' % quoteattr(file)) if file else '', secs)
    if status == 'passed': return '<testcase %s/>' % attrs
    tag = 'skipped' if status == 'skipped' else status
    return '<testcase %s><%s message=%s>%s</%s></testcase>' % (attrs, tag, quoteattr(text.strip().split('\n')[-1][:500]), escape(text), tag)
with open(report, 'w', encoding='utf-8') as f:
    f.write('<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="unittest" tests="%d">\n' % len(cases))
    f.write('\n'.join(case(c) for c in cases))
    f.write('\n</testsuite></testsuites>\n')
sys.exit(0 if prog.result.wasSuccessful() else 1)
`;

/** Expands the placeholder into `-c <script>`; for an agent, the same run as plain `-m unittest`. */
export function expandUnittest(argv: string[], forAgent: boolean): string[] {
  const at = argv.indexOf(UNITTEST_JUNIT);
  if (at < 0) return argv;
  return forAgent
    ? [...argv.slice(0, at), '-m', 'unittest', ...argv.slice(at + 2)]
    : [...argv.slice(0, at), '-c', UNITTEST_JUNIT_SCRIPT, ...argv.slice(at + 1)];
}
