// FrogNano's guard for graded test runs (Node): preloaded with --require
// through NODE_OPTIONS, before any test file or code of the change loads, in
// the runner's process and every Node process it starts.
//
// It freezes the assertion and test modules: every export of node:assert
// (and assert.strict) and node:test keeps its value for the whole run. An
// assignment to one ends the process, after one line
// `FROGNANO-GUARD framework-changed: <detail>` on the stderr it had at
// start; a redefinition throws. Code that silences assertions by replacing
// them can then neither do it nor go unnoticed.
'use strict';
const fs = require('node:fs');
const writeSync = fs.writeSync;
const exit = process.reallyExit.bind(process);

function alarm(detail) {
  try {
    writeSync(2, `\nFROGNANO-GUARD framework-changed: ${detail}\n`);
  } catch {
    // stderr closed: the exit status still says it
  }
  exit(86);
}

/** Every own property of `target` keeps its value; writing one raises the alarm. */
function freeze(target, name) {
  for (const key of Reflect.ownKeys(target)) {
    const d = Object.getOwnPropertyDescriptor(target, key);
    if (!d || !d.configurable) continue;
    const label = `${name}.${String(key)}`;
    if ('value' in d) {
      const value = d.value;
      Object.defineProperty(target, key, {
        get: () => value,
        set: () => alarm(`${label} was replaced`),
        enumerable: d.enumerable,
        configurable: false,
      });
    } else {
      Object.defineProperty(target, key, { ...d, set: d.set ?? (() => alarm(`${label} was replaced`)), configurable: false });
    }
  }
  Object.preventExtensions(target);
}

for (const [id, name] of [
  ['node:assert', 'assert'],
  ['node:test', 'test'],
]) {
  let mod;
  try {
    mod = require(id);
  } catch {
    continue; // node:test is missing from old Node versions
  }
  if (id === 'node:assert') freeze(mod.strict, 'assert.strict');
  freeze(mod, name);
}
