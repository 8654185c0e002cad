// The instruction writer: what the agent is told, from the failing tests, at
// three hint levels. It never reveals the fix: an instruction holding any code
// line the fix adds is rejected.
import type { ChatClient } from '../model/openai.js';
import type { HintLevel } from '../task/task.js';
import { decodeEntities } from '../report/xml.js';
import { addedLines } from '../util/diff.js';

export interface InstructionInput {
  envName: string;
  language: string;
  f2p: string[];
  /** Failure output per failing test, from the candidate run. */
  failures: Record<string, string>;
  hint: HintLevel;
}

const MAX_TESTS = 5;
const MAX_LINES = 8;

function clip(text: string): string {
  const lines = text.trim().split('\n');
  const kept = lines.slice(0, MAX_LINES).map((l) => l.slice(0, 200));
  return kept.join('\n') + (lines.length > MAX_LINES ? '\n…' : '');
}

/** Compared values as runners print them: [pattern, index of the actual value's group, of the expected's]. */
const COMPARISONS: [RegExp, number, number][] = [
  // unittest: "AssertionError: 0.0 != 2" (first argument, conventionally the result, on the left)
  [/AssertionError: ([^\n]+?) != ([^\n]+?)(?: : [^\n]*)?$/m, 1, 2],
  // node:assert strict and loose: "3599 !== 3600", "3 != 4"
  [/^\s*([^\n]+?) !==? ([^\n]+)$/m, 1, 2],
  // Jest and expect: "Expected: 2\nReceived: 0"
  [/Expected(?: value)?: ([^\n]+)\n\s*Received(?: value)?: ([^\n]+)/, 2, 1],
  // chai (mocha, vitest): "expected 3 to equal 2", "expected NaN to be +0 // Object.is equality"
  [/expected ([^\n]+?) to (?:be|equal|eql|strictly equal|deeply equal|deep equal|be close to) ([^\n]+?)(?:\s*\/\/[^\n]*)?$/m, 1, 2],
  // node-tap: "--- expected\n+++ actual\n@@ ... @@\n-0\n+NaN"
  [/--- expected\n\+\+\+ actual\n(?:@@[^\n]*\n)?-([^\n]+)\n\+([^\n]+)/, 2, 1],
  // ava: "Difference (- actual, + expected): ... - 2\n+ 3"
  [/Difference \(- actual, \+ expected\)[^\n]*\n\s*- ([^\n]+)\n\s*\+ ([^\n]+)/, 1, 2],
  // tape's YAML block and TAP diagnostics: "expected: 0\nactual: -1", either order
  [/^\s*expected: ([^\n]+)\n\s*actual: ([^\n]+)/m, 2, 1],
  [/^\s*actual: ([^\n]+)\n\s*expected: ([^\n]+)/m, 1, 2],
  // pytest: "assert 4 == 5", "assert 0.5 == 2 ± 2.0e-06" (approx)
  [/^(?:E?\s*)?(?:AssertionError: )?assert (.+?) == (.+?)$/m, 1, 2],
];

/** Reports are XML or JSON text; a message may still carry escaped entities (twice-escaped CDATA, attribute text). */
function unescapeEntities(text: string): string {
  return /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/i.test(text) ? decodeEntities(text) : text;
}

/**
 * An observed wrong behaviour, in words, from a failure message: the values
 * an assertion compared, with test names and file paths left out. Every
 * supported runner's assertion style is read (node:assert, Jest/expect,
 * chai, node-tap, tape, ava, unittest, pytest).
 */
export function symptomOf(raw: string): string | null {
  const message = unescapeEntities(raw);
  const missing = /Missing expected exception(?: \((\w+)\))?/.exec(message);
  if (missing) return `an expected ${missing[1] ?? 'error'} is not raised`;
  if (/deep-?equal/i.test(message) && /^[+-] {2,}/m.test(message)) {
    const actual = /^\+ {2,}(.+)$/m.exec(message)?.[1]?.replace(/,$/, '');
    const expected = /^- {2,}(.+)$/m.exec(message)?.[1]?.replace(/,$/, '');
    if (actual && expected) return `a result holds ${actual.trim()} where ${expected.trim()} was expected`;
    return 'a structured result differs from what is expected';
  }
  for (const [re, a, e] of COMPARISONS) {
    const m = re.exec(message);
    if (m?.[a] && m[e]) return `a result was ${m[a]!.trim().slice(0, 120)} where ${m[e]!.trim().slice(0, 120)} was expected`;
  }
  const raises = /DID NOT RAISE <class '(?:[\w.]+\.)?(\w+)'>|(?:should|to) throw|Missing expected rejection|Expected the function to throw/.exec(message);
  if (raises) return `an expected ${raises[1] ?? 'error'} is not raised`;
  const err = /\b(\w*(?:Error|Exception))\b:?\s*([^\n]*)/.exec(message);
  if (err && err[1] !== 'AssertionError' && !/^expect\(/.test(err[2] ?? '')) {
    return `an unexpected ${err[1]} is raised${err[2] ? ` ("${err[2]!.trim().slice(0, 120)}")` : ''}`;
  }
  if (/falsy|truthy|to be (true|false)|to be ok|assert (not )?\w|should be truthy|isTrue|isFalse/i.test(message))
    return 'a condition that should hold does not';
  return null;
}

export function writeInstruction(input: InstructionInput): string {
  const n = input.f2p.length;
  const closing = 'Fix the source code so that the behaviour is correct. Do not modify the tests.';
  switch (input.hint) {
    case 'minimal':
      return `Something is broken in this ${input.language} project (${input.envName}): ${n === 1 ? 'a test fails' : `${n} tests fail`}. Find and fix the bug.\n\n${closing}\n`;
    case 'symptom': {
      const seen = new Set<string>();
      for (const id of input.f2p) {
        const s = symptomOf(input.failures[id] ?? '');
        if (s) seen.add(s);
        if (seen.size >= 3) break;
      }
      const observed = seen.size > 0 ? [...seen].map((s) => `- ${s}`).join('\n') : '- some results are wrong';
      return `## Bug report\n\nAfter a recent change, parts of ${input.envName} misbehave. Observed:\n\n${observed}\n\n${closing}\n`;
    }
    case 'full': {
      const shown = input.f2p.slice(0, MAX_TESTS);
      const parts = shown.map((id) => `### ${id}\n\n\`\`\`\n${clip(input.failures[id] ?? 'the test did not run')}\n\`\`\``);
      const more = n > shown.length ? `\n\n(and ${n - shown.length} more failing tests)` : '';
      return `These tests fail:\n\n${parts.join('\n\n')}${more}\n\n${closing}\n`;
    }
  }
}

/** The fix's added code lines that appear in the instruction (empty: no leak). */
export function instructionLeaks(instruction: string, fixPatch: string): string[] {
  const text = instruction.replace(/\s+/g, ' ');
  return addedLines(fixPatch)
    .map((l) => l.trim().replace(/\s+/g, ' '))
    .filter((l) => l.length >= 6 && /[A-Za-z0-9_]/.test(l) && text.includes(l));
}

/**
 * Issue text written by a model (SWE-smith style): it sees the bug patch and
 * the failures, and is asked for a user's report that neither names tests nor
 * says how to fix. The caller still runs the leak check on the result.
 */
export async function llmInstruction(client: ChatClient, input: InstructionInput, bugPatch: string): Promise<string> {
  const failures = input.f2p
    .slice(0, MAX_TESTS)
    .map((id) => clip(input.failures[id] ?? ''))
    .join('\n---\n');
  const res = await client.chat({
    temperature: 0.7,
    messages: [
      {
        role: 'user',
        content: [
          `Write a GitHub issue, as a user of the ${input.language} library "${input.envName}" would, about the wrong behaviour below.`,
          'Describe what happens and what was expected, with a small example if useful.',
          'Do not mention tests or test names, do not quote the diff, and do not say how to fix it.',
          'Reply with the issue text only.',
          '',
          'The change that broke it (for your understanding only):',
          bugPatch,
          'What goes wrong:',
          failures,
        ].join('\n'),
      },
    ],
  });
  const text = (res.message.content ?? '').trim();
  if (!text) throw new Error('the model wrote an empty issue');
  return `${text}\n`;
}
