// The embedded agent driven directly, turn by turn, against a scripted
// repository: the tool outputs are written here in the harness's formats
// (Bash's "Exit code: N" over node:test TAP, Glob's path list, Read's numbered
// lines, Edit's exact-match result), so no sandbox or workspace is needed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { numberLines } from '../../src/agent/tools/read.js';
import type { ChatMessage } from '../../src/model/openai.js';
import type { ModelTurn } from '../../src/model/types.js';
import { EmbeddedAgent } from '../../src/policy/agent.js';
import { applyRepair, asEdit, repairsIn } from '../../src/policy/candidates.js';
import { decisionsOf, type EmbeddedTurn } from '../../src/policy/decisions.js';
import { LinearPolicy } from '../../src/policy/linear.js';
import { policyFavouring } from '../helpers/policy.js';

const WORKDIR = '/workspace/repo';
const COMMAND = 'node --test-reporter=tap --test-reporter-destination=stdout tests/math.test.js';
const INSTRUCTION = `add() returns wrong sums, and range() throws on ordinary ranges. Fix the library.\n\nThe repository is at ${WORKDIR} . Run the tests with:\n    ${COMMAND}\n`;

const ADD = 'export function add(a, b) {\n  return a + b;\n}\n';
const MUL = 'export function mul(a, b) {\n  return a * b;\n}\n';
const RANGE =
  'export function range(from, count) {\n  const end = add(from, count);\n  if (end < from) throw new RangeError(`empty range ${from}..${end}`);\n  const out = [];\n  for (let i = from; i < end; i++) out.push(i);\n  return out;\n}\n';
const RIGHT = `${ADD}\n${MUL}\n${RANGE}`;
const BROKEN = RIGHT.replace('a + b', 'a - b');
/** Two bugs: repairing add() leaves mul() failing. */
const BROKEN2 = BROKEN.replace('a * b', 'a / b');
const HALF_FIXED = BROKEN2.replace('a - b', 'a + b');
const FORMAT = 'export function money(cents) {\n  return `$${(cents / 100).toFixed(2)}`;\n}\n';
const TESTS = `import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { add, mul, range } from '../src/math.js';

describe('math', () => {
  it('add sums', () => {
    assert.equal(add(2, 3), 5);
  });
  it('mul multiplies', () => {
    assert.equal(mul(2, 3), 6);
  });
  it('range counts up', () => {
    assert.deepEqual(range(2, 3), [2, 3, 4]);
  });
});
`;

const frame = (fn: string, file: string, line: number, col: number) => `${fn} (file://${WORKDIR}/${file}:${line}:${col})`;
const unequal = (got: string, want: string) => ['Expected values to be strictly equal:', '', `${got} !== ${want}`, ''];
/** The suite's tests: where each is, when it passes (given src/math.js), and how it fails. */
const CASES = [
  {
    name: 'add sums',
    line: 6,
    passes: (m: string) => m.includes(ADD),
    type: 'AssertionError',
    error: unequal('-1', '5'),
    stack: [frame('TestContext.<anonymous>', 'tests/math.test.js', 7, 12)],
  },
  {
    name: 'mul multiplies',
    line: 9,
    passes: (m: string) => m.includes(MUL),
    type: 'AssertionError',
    error: unequal('0.6666666666666666', '6'),
    stack: [frame('TestContext.<anonymous>', 'tests/math.test.js', 10, 12)],
  },
  {
    name: 'range counts up',
    line: 12,
    passes: (m: string) => m.includes(ADD) && m.includes(RANGE),
    type: 'RangeError',
    error: ['empty range 2..-1'],
    stack: [frame('range', 'src/math.js', 11, 25), frame('TestContext.<anonymous>', 'tests/math.test.js', 13, 22)],
  },
];

/** What the Bash tool prints for the suite run on this src/math.js: node:test's TAP reporter under "Exit code: N". */
function testRun(math: string): string {
  const out = ['TAP version 13', '# Subtest: math'];
  const ok = CASES.map((c) => c.passes(math));
  CASES.forEach((c, i) => {
    out.push(`    # Subtest: ${c.name}`, `    ${ok[i] ? 'ok' : 'not ok'} ${i + 1} - ${c.name}`, '      ---', '      duration_ms: 0.41');
    if (!ok[i]) {
      out.push(`      location: '${WORKDIR}/tests/math.test.js:${c.line}:3'`, "      failureType: 'testCodeFailure'");
      out.push(...(c.error.length > 1 ? ['      error: |-', ...c.error.map((l) => `        ${l}`)] : [`      error: '${c.error[0]}'`]));
      out.push(`      code: '${c.type === 'AssertionError' ? 'ERR_ASSERTION' : 'ERR_TEST_FAILURE'}'`, `      name: '${c.type}'`, '      stack: |-');
      out.push(...[...c.stack, 'Test.runInAsyncScope (node:async_hooks:206:9)', 'Test.run (node:internal/test_runner/test:796:25)'].map((l) => `        ${l}`));
    }
    out.push('      ...');
  });
  const failed = ok.filter((x) => !x).length;
  out.push(
    `    1..${CASES.length}`,
    `${failed ? 'not ok' : 'ok'} 1 - math`,
    '  ---',
    '  duration_ms: 2.87',
    "  type: 'suite'",
    `  location: '${WORKDIR}/tests/math.test.js:5:1'`,
  );
  if (failed) out.push("  failureType: 'subtestsFailed'", `  error: '${failed} subtest${failed > 1 ? 's' : ''} failed'`, "  code: 'ERR_TEST_FAILURE'");
  out.push(
    '  ...',
    '1..1',
    `# tests ${CASES.length}`,
    '# suites 1',
    `# pass ${CASES.length - failed}`,
    `# fail ${failed}`,
    '# cancelled 0',
    '# skipped 0',
    '# todo 0',
    '# duration_ms 35.2',
  );
  return `Exit code: ${failed ? 1 : 0}\n${out.join('\n')}\n`;
}

/** The repository at /workspace/repo, and the four tools over it, answering as the harness's tools do. */
class Repo {
  readonly files: Record<string, string>;
  /** `stuck`: every test run reports the original failures, whatever was edited. */
  constructor(
    math: string,
    private readonly stuck = false,
  ) {
    this.files = { 'package.json': '{"type":"module"}\n', 'src/format.js': FORMAT, 'src/math.js': math, 'tests/math.test.js': TESTS };
  }

  tool(name: string, args: Record<string, unknown>): string {
    if (name === 'Bash') {
      assert.equal(args.command, COMMAND, 'the command from the instruction');
      return testRun(this.stuck ? BROKEN : this.files['src/math.js']!);
    }
    if (name === 'Glob') return Object.keys(this.files).sort().join('\n');
    const file = String(args.file_path);
    const text = this.files[file];
    if (text === undefined) return `Error: ${file} does not exist`;
    if (name === 'Read') {
      const lines = text.split('\n').slice(0, -1);
      const offset = Number(args.offset ?? 1);
      const shown = lines.slice(offset - 1, offset - 1 + Number(args.limit ?? 2000));
      const last = offset - 1 + shown.length;
      const more =
        offset > 1 || last < lines.length
          ? `\n[showing lines ${offset}-${last} of ${lines.length}${last < lines.length ? `; use offset=${last + 1} to read more]` : ']'}`
          : '';
      return numberLines(shown, offset) + more;
    }
    assert.equal(name, 'Edit');
    const [old, next] = [String(args.old_string), String(args.new_string)];
    const count = text.split(old).length - 1;
    if (count !== 1) return `Error: old_string ${count ? `matches ${count} times` : 'was not found'} in ${file}`;
    const start = text.indexOf(old);
    this.files[file] = text.slice(0, start) + next + text.slice(start + old.length);
    return `Edited ${file}: replaced 1 occurrence.\n${numberLines(this.files[file]!.split('\n').slice(0, -1), 1)}`;
  }
}

/** One tool call, what the repository answered, the turn that made it, and src/math.js after it. */
interface Call {
  tool: string;
  args: Record<string, unknown>;
  output: string;
  turn: ModelTurn<EmbeddedTurn>;
  math: string;
}

const EDIT_ERROR = 'Error: old_string was not found in src/math.js; it must match exactly, including whitespace and indentation (Read the file to copy it)';

/** Plays the harness: one turn at a time, each tool call answered by the repository (the `failChoice`-th chosen repair's Edit by an error instead). */
async function drive(agent: EmbeddedAgent, repo: Repo, failChoice = -1): Promise<{ turns: ModelTurn<EmbeddedTurn>[]; calls: Call[] }> {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a careful software engineer. Use the tools to fix the repository.' },
    { role: 'user', content: INSTRUCTION },
  ];
  const turns: ModelTurn<EmbeddedTurn>[] = [];
  const calls: Call[] = [];
  let choices = 0;
  while (turns.length < 200) {
    const turn = await agent.turn({ messages });
    turns.push(turn);
    if (!turn.message.tool_calls?.length) return { turns, calls };
    assert.equal(turn.message.tool_calls.length, 1, 'one call a turn');
    const call = turn.message.tool_calls[0]!;
    const args = JSON.parse(call.function.arguments) as Record<string, unknown>;
    const failing = turn.learner?.choice !== undefined && choices++ === failChoice;
    const output = failing ? EDIT_ERROR : repo.tool(call.function.name, args);
    calls.push({ tool: call.function.name, args, output, turn, math: repo.files['src/math.js']! });
    messages.push(turn.message as ChatMessage, { role: 'tool', tool_call_id: call.id, content: output });
  }
  throw new Error('the agent never stopped');
}

const chosen = (calls: Call[]) => calls.filter((c) => c.turn.learner?.choice);
/** `b` is the undo of `a`: the same Edit reversed, made as no new choice. */
const isUndo = (a: Call, b: Call | undefined) =>
  b?.tool === 'Edit' &&
  !b.turn.learner?.choice &&
  b.args.file_path === a.args.file_path &&
  b.args.old_string === a.args.new_string &&
  b.args.new_string === a.args.old_string;
const candidates = async () => [...(await repairsIn('src/math.js', BROKEN)), ...(await repairsIn('src/format.js', FORMAT))];
const trajectoryOf = (turns: ModelTurn<EmbeddedTurn>[]) => ({
  turns: turns.map((t) => ({ tools: (t.message.tool_calls ?? []).map((c) => c.function.name), ...(t.learner ? { learner: t.learner } : {}) })),
  stopReason: 'submitted' as const,
});

describe('EmbeddedAgent: the opening', () => {
  it("runs the instruction's test command, globs, reads the framed source first, then the failing tests around their frames, before any Edit", async () => {
    const { calls } = await drive(new EmbeddedAgent(new LinearPolicy('zero'), { seed: 1 }), new Repo(BROKEN));
    const firstEdit = calls.findIndex((c) => c.tool === 'Edit');
    const window = (line: number) => ['Read', { file_path: 'tests/math.test.js', offset: line - 2, limit: 20 }];
    assert.deepEqual(
      calls.slice(0, firstEdit).map((c) => [c.tool, c.args]),
      [
        ['Bash', { command: COMMAND }],
        ['Glob', { pattern: '**/*' }],
        ['Read', { file_path: 'src/math.js' }], // in range()'s stack, so before src/format.js
        ['Read', { file_path: 'src/format.js' }],
        window(7),
        window(6),
        window(13),
        window(12), // add sums' stack and location, then range counts up's
      ],
    );
  });
});

describe('EmbeddedAgent: a repair', () => {
  it('is an exact, unique old/new pair on the text read, with the choice and its exact logprob on the turn', async () => {
    const policy = new LinearPolicy();
    const { calls } = await drive(new EmbeddedAgent(policy, { seed: 2, maxAttempts: 1 }), new Repo(BROKEN));
    const [edit, ...more] = chosen(calls);
    assert.equal(more.length, 0);
    const choice = edit!.turn.learner!.choice!;
    const cands = await candidates();
    assert.equal(choice.feats.length, cands.length, 'every candidate of both files read');
    assert.equal(choice.temperature, 1);
    const r = cands[choice.chosen]!;
    const text = r.file === 'src/math.js' ? BROKEN : FORMAT;
    assert.deepEqual(edit!.args, { file_path: r.file, ...asEdit(text, r) });
    const old = String(edit!.args.old_string);
    assert.equal(text.split(old).length, 2, 'old_string occurs once');
    assert.equal(
      text.replace(old, () => String(edit!.args.new_string)),
      applyRepair(text, r),
    );
    assert.match(edit!.output, /^Edited /);
    assert.ok(Math.abs(edit!.turn.logprob! - policy.logprob(choice)) < 1e-12, `${edit!.turn.logprob} vs ${policy.logprob(choice)}`);
    assert.ok(Math.abs(edit!.turn.logprob! + Math.log(cands.length)) > 1e-6, "the prior is not uniform: the logprob is the chosen one's");
    assert.deepEqual(
      calls.filter((c) => c.turn.logprob !== undefined),
      [edit],
      'only the choice carries a logprob',
    );
  });

  it('is kept when fewer tests fail: the next Edit is a new choice on the repaired text, not an undo', async () => {
    const policy = await policyFavouring('src/math.js', BROKEN2, HALF_FIXED);
    const { turns, calls } = await drive(new EmbeddedAgent(policy, { seed: 1 }), new Repo(BROKEN2));
    const i = calls.indexOf(chosen(calls)[0]!);
    const [fix, run, next] = calls.slice(i, i + 3);
    assert.equal(fix!.math, HALF_FIXED);
    assert.match(run!.output, /^# fail 1$/m);
    assert.ok(next!.turn.learner?.choice, 'a new repair');
    assert.equal(next!.turn.learner?.undoes, undefined);
    // Its candidates are those of the repaired text (less the repair made), and its Edit is made on that text.
    const tried = `src/math.js:${(await repairsIn('src/math.js', BROKEN2)).find((r) => applyRepair(BROKEN2, r) === HALF_FIXED)!.start}:+`;
    const cands = [...(await repairsIn('src/math.js', HALF_FIXED)), ...(await repairsIn('src/format.js', FORMAT))].filter(
      (r) => `${r.file}:${r.start}:${r.text}` !== tried,
    );
    const { feats, chosen: k } = next!.turn.learner!.choice!;
    assert.equal(feats.length, cands.length);
    assert.deepEqual(next!.args, { file_path: cands[k]!.file, ...asEdit(cands[k]!.file === 'src/math.js' ? HALF_FIXED : FORMAT, cands[k]!) });
    assert.match(next!.output, /^Edited /);
    assert.ok(!calls.some((c) => isUndo(fix!, c)));
    assert.equal(decisionsOf(trajectoryOf(turns))[0]!.undone, undefined);
  });

  it('is undone when the tests do not improve: the next Edit reverses it exactly and reports its index', async () => {
    const wrong = BROKEN.replace('a * b', 'a / b');
    const policy = await policyFavouring('src/math.js', BROKEN, wrong);
    const { calls } = await drive(new EmbeddedAgent(policy, { seed: 1, maxAttempts: 2 }), new Repo(BROKEN));
    const i = calls.indexOf(chosen(calls)[0]!);
    const [edit, run, undo, retry] = calls.slice(i, i + 4);
    assert.equal(edit!.math, wrong);
    assert.match(run!.output, /^# fail 3$/m);
    assert.deepEqual(undo!.args, { file_path: 'src/math.js', old_string: edit!.args.new_string, new_string: edit!.args.old_string });
    assert.equal(undo!.math, BROKEN, 'the file is back as it was');
    assert.deepEqual(undo!.turn.learner, { undoes: [0] });
    assert.equal(undo!.turn.logprob, undefined);
    assert.ok(retry!.turn.learner?.choice, 'then another repair');
  });

  it('that fails to apply is marked undone, with no undo Edit and no test run, and is not offered again', async () => {
    const { calls } = await drive(new EmbeddedAgent(new LinearPolicy('zero'), { seed: 4, maxAttempts: 2 }), new Repo(BROKEN), 0);
    const i = calls.indexOf(chosen(calls)[0]!);
    const [failed, next] = calls.slice(i, i + 2);
    assert.equal(failed!.output, EDIT_ERROR);
    assert.equal(failed!.math, BROKEN);
    assert.ok(next!.turn.learner?.choice, 'straight to a new repair');
    assert.deepEqual(next!.turn.learner?.undoes, [0]);
    assert.equal(next!.turn.learner!.choice!.feats.length, failed!.turn.learner!.choice!.feats.length - 1);
  });
});

describe('EmbeddedAgent: the end of the episode', () => {
  it('submits once the tests pass: one Edit, a green run, then a turn with no tool call and finishReason stop', async () => {
    const policy = await policyFavouring('src/math.js', BROKEN, RIGHT);
    const { turns, calls } = await drive(new EmbeddedAgent(policy, { seed: 1 }), new Repo(BROKEN));
    assert.deepEqual(
      calls.filter((c) => c.tool === 'Edit').map((c) => c.math),
      [RIGHT],
    );
    assert.match(calls.at(-1)!.output, /^Exit code: 0\n/);
    const last = turns.at(-1)!;
    assert.equal(last.finishReason, 'stop');
    assert.equal(last.message.tool_calls, undefined);
    assert.equal(last.logprob, undefined);
    assert.equal(last.learner, undefined);
  });

  it('gives up after maxAttempts repairs when none helps, each one tested and undone', async () => {
    const repo = new Repo(BROKEN, true);
    const { turns, calls } = await drive(new EmbeddedAgent(new LinearPolicy('zero'), { seed: 7, maxAttempts: 3 }), repo);
    const tried = chosen(calls);
    assert.equal(tried.length, 3);
    tried.forEach((c, k) => {
      const i = calls.indexOf(c);
      assert.equal(calls[i + 1]!.tool, 'Bash');
      assert.ok(isUndo(c, calls[i + 2]), `repair ${k} undone`);
      assert.deepEqual(calls[i + 2]!.turn.learner, { undoes: [k] });
    });
    assert.equal(calls.length, 8 + 3 * 3, 'the opening, then edit, run and undo three times');
    assert.equal(turns.at(-1)!.finishReason, 'stop');
    assert.equal(repo.files['src/math.js'], BROKEN);
    assert.equal(repo.files['src/format.js'], FORMAT);
  });
});

describe('EmbeddedAgent: seeds, greedy, opening only', () => {
  const episode = async (seed: number, extra = {}, policy = new LinearPolicy('zero')) =>
    (await drive(new EmbeddedAgent(policy, { seed, maxAttempts: 4, ...extra }), new Repo(BROKEN2))).calls;

  it('the same seed makes the same calls; the seed decides the repairs', async () => {
    const calls = (cs: Call[]) => cs.map((c) => [c.tool, c.args]);
    assert.deepEqual(calls(await episode(11)), calls(await episode(11)));
    const firsts = new Set<string>();
    for (let seed = 1; seed <= 6; seed++) firsts.add(JSON.stringify(chosen(await episode(seed))[0]!.args));
    assert.ok(firsts.size > 1, 'different seeds, different first repairs');
  });

  it('greedy takes the most probable candidate whatever the seed; sampling does not always', async () => {
    const policy = await policyFavouring('src/math.js', BROKEN2, HALF_FIXED, 6);
    const sampled = new Set<number>();
    for (let seed = 1; seed <= 8; seed++) {
      const choice = chosen(await episode(seed, { greedy: true, maxAttempts: 1 }, policy))[0]!;
      const { feats, chosen: index } = choice.turn.learner!.choice!;
      const p = policy.probabilities(feats);
      assert.equal(index, p.indexOf(Math.max(...p)));
      assert.ok(p[index]! < 0.9, `not a sure thing (${p[index]})`);
      assert.equal(choice.math, HALF_FIXED, 'the favoured repair');
      assert.ok(Math.abs(choice.turn.logprob! - Math.log(p[index]!)) < 1e-12);
      sampled.add(chosen(await episode(seed, { maxAttempts: 1 }, policy))[0]!.turn.learner!.choice!.chosen);
    }
    assert.ok(sampled.size > 1, 'sampling takes others too');
  });

  it('openingOnly makes no Edit and keeps every candidate of the files read, with its features', async () => {
    const agent = new EmbeddedAgent(new LinearPolicy('zero'), { seed: 1, openingOnly: true });
    const { turns, calls } = await drive(agent, new Repo(BROKEN));
    assert.deepEqual(
      calls.map((c) => c.tool),
      ['Bash', 'Glob', 'Read', 'Read', 'Read', 'Read', 'Read', 'Read'],
    );
    assert.equal(turns.at(-1)!.finishReason, 'stop');
    assert.ok(turns.every((t) => !t.learner && t.logprob === undefined));
    const opening = agent.opening!;
    assert.deepEqual(
      opening.cands.map((c) => c.r),
      await candidates(),
    );
    assert.ok(
      opening.cands.every((c) => c.text === (c.r.file === 'src/math.js' ? BROKEN : FORMAT)),
      'with the text of their file',
    );
    assert.equal(opening.feats.length, opening.cands.length);
    assert.ok(opening.feats.every((f) => f.idx.length > 0 && f.idx.length === f.val.length));
    assert.ok(
      opening.cands.some((c) => applyRepair(c.text, c.r) === RIGHT),
      'the fix among them',
    );
  });
});

describe("EmbeddedAgent: the learner's decisions", () => {
  it('decisionsOf the turns gives one decision per chosen repair, undone exactly on those undone or failed', async () => {
    const policy = await policyFavouring('src/math.js', BROKEN2, HALF_FIXED);
    const { turns, calls } = await drive(new EmbeddedAgent(policy, { seed: 3 }), new Repo(BROKEN2), 1);
    const ds = decisionsOf(trajectoryOf(turns));
    const picks = chosen(calls);
    assert.equal(ds.length, picks.length);
    const undone = picks.map((c) => c.output.startsWith('Error') || isUndo(c, calls[calls.indexOf(c) + 2]));
    assert.deepEqual(
      ds.map((d) => d.undone ?? false),
      undone,
    );
    assert.deepEqual(undone.slice(0, 2), [false, true], 'add() kept, then the Edit that failed');
    picks.forEach((c, k) => {
      const { undone: _, ...decision } = ds[k]!;
      assert.deepEqual(decision, c.turn.learner!.choice);
      assert.ok(Math.abs(c.turn.logprob! - policy.logprob(ds[k]!)) < 1e-12);
    });
  });
});
