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
