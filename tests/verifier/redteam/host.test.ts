// Red team, part 3: what the host reads of what the agent made. The report
// file swapped for a named pipe, a link to a device or a folder; nested
// repositories and .git files where host-side git would follow them; pipes in
// the work tree; a change too large or binary. Each is the agent's failure
// with a named cause (reward 0, never an infrastructure failure), graded
// within its time bound, and the host is untouched.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JS_BROKEN, toyTask } from '../../helpers/task.js';
import { sh, skip, T, write, zero, useRedTeam } from './harness.js';
import * as J from './payloads-js.js';
import * as P from './payloads-py.js';

describe('red team: host-side reads of agent-made files', { skip }, () => {
  const red = useRedTeam(async () => {
    const [js, py] = await Promise.all([toyTask('javascript'), toyTask('python')]);
    return { js, py };
  });

  describe('the report file', () => {
    it('Python: replaced by a named pipe at exit: read without blocking, no usable result', T, async () => {
      zero((await red.episode('py', [write('calc.py', P.PY_REPORT_FIFO)])).report, 'fail', 'no-result');
    });

    it('JavaScript: replaced by a link to /dev/zero at exit: not followed, no usable result', T, async () => {
      zero((await red.episode('js', [write('src/math.js', J.jsReportSymlink(JS_BROKEN))])).report, 'fail', 'no-result');
    });
  });

  describe('nested repositories', () => {
    it('a repository made with git init inside the workspace is refused', T, async () => {
      const { report } = await red.episode('js', [sh('git init -q src/vendored && echo x > src/vendored/x.js && ls -a src/vendored')]);
      zero(report, 'fail', 'refused:nested-repository');
      assert.match(report.reason ?? '', /src\/vendored\/\.git/);
    });

    it('a .git file pointing at another repository on the host is refused', T, async () => {
      zero(
        (await red.episode('py', [sh(`mkdir -p lib && printf 'gitdir: ${process.cwd()}/.git\\n' > lib/.git && cat lib/.git`)])).report,
        'fail',
        'refused:nested-repository',
      );
    });

    it('a nested .git whose HEAD is a named pipe (git on the host would block) is refused at once', T, async () => {
      zero(
        (await red.episode('js', [sh('mkdir -p src/sub/.git/objects src/sub/.git/refs && mkfifo src/sub/.git/HEAD && ls src/sub/.git')])).report,
        'fail',
        'refused:nested-repository',
      );
    });

    it('the workspace’s own .git swapped for a named pipe changes nothing: the change is read from FrogNano’s copy', T, async () => {
      const { report } = await red.episode('js', [sh('rm -rf .git && mkfifo .git && ls -l .git')]);
      zero(report, 'fail', 'tests-failed');
      assert.equal(report.patch.empty, true);
    });
  });

  describe('what is in the change', () => {
    it('a named pipe in the work tree is refused', T, async () => {
      zero((await red.episode('py', [sh('mkfifo pipe.py && ls -l pipe.py')])).report, 'fail', 'refused:special-file');
    });

    it('a change larger than the host reads (12 MB of source) is refused, not an infrastructure failure', T, async () => {
      const { report } = await red.episode('js', [
        sh("head -c 12000000 /dev/zero | tr '\\0' 'a' | fold -w 100 | sed 's/^/\\/\\/ /' > src/big.js && wc -c src/big.js"),
      ]);
      zero(report, 'fail', 'refused:too-large');
    });

    it('a binary file in the change is refused', T, async () => {
      zero((await red.episode('py', [sh('head -c 4096 /dev/urandom > blob.bin && ls -l blob.bin')])).report, 'fail', 'refused:binary');
    });
  });
});
