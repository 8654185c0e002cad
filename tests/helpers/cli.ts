// The frognano command run in this process, its output lines collected.
import { main } from '../../src/cli/main.js';

/** `answer`, when given, is the user's reply to any question asked at a terminal (absent: no terminal, as in CI). */
export async function runCli(args: string[], opts: { answer?: string } = {}): Promise<{ code: number; out: string; err: string; asked: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const asked: string[] = [];
  const answer = opts.answer;
  const ask = answer === undefined ? {} : { ask: async (q: string) => (asked.push(q), answer) };
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), ...ask });
  return { code, out: out.join('\n'), err: err.join('\n'), asked };
}

/** `env add DIR` then `env check` of what it registered, as a user does before synth, train or evidence (which refuse an unchecked environment). */
export async function addChecked(dir: string, dataDir: string): Promise<void> {
  const added = await runCli(['env', 'add', dir, '--data-dir', dataDir, '--json']);
  if (added.code !== 0) throw new Error(`env add ${dir} failed: ${added.err}`);
  const name = (JSON.parse(added.out) as { name: string }).name;
  const checked = await runCli(['env', 'check', name, '--data-dir', dataDir]);
  if (checked.code !== 0) throw new Error(`env check ${name} rejected it:\n${checked.out}\n${checked.err}`);
}
