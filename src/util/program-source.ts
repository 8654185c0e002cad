// Pieces of plain JavaScript shared by the small programs FrogNano runs with
// `node -e` (the kept sandbox's supervisor, the process helper): they see no
// FrogNano files, so what they share is text put before their own.
export const PROGRAM_PRELUDE = String.raw`
'use strict';
// Calls fn with each line read from stdin; exits when stdin ends.
function onStdinLines(fn) {
  let buffered = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (d) => {
    buffered += d;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      fn(line);
    }
  });
  process.stdin.on('end', () => process.exit(0));
}

// This process's /proc stat fields after its name: utime, stime, cutime, cstime are 11-14.
function ownStat() {
  const stat = require('node:fs').readFileSync('/proc/self/stat', 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}
`;
