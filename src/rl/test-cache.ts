// A Bash tool that reuses the agent's test runs: when the command is the
// task's test command and the work tree holds the same content as at an
// earlier run (a digest, grading/reuse.ts), the earlier output is returned
// instead of running the suite again. Sound because validated tasks have no
// flaky test and the output depends only on the files; it turns the G
// rollouts of a group, which all start by running the same failing suite,
// into one run.
import type { Tool, ToolResult } from '../agent/tools/types.js';
import { toolset } from '../agent/tools/index.js';
import { ReuseKind, type ResultReuse } from '../grading/reuse.js';

/** The agent's test runs, by the work tree's content, the command and its environment. */
const AGENT_TESTS = new ReuseKind<ToolResult>('agent-test');

export class TestRunCache {
  constructor(readonly reuse: ResultReuse) {}

  /** The leaf toolset with Bash replaced by the reusing one. */
  tools(testCommand: string, env: Record<string, string> = {}): Tool[] {
    return toolset('leaf').map((t) => (t.spec.function.name === 'Bash' ? this.wrap(t, testCommand, env) : t));
  }

  private wrap(bash: Tool, testCommand: string, env: Record<string, string>): Tool {
    return {
      spec: bash.spec,
      run: async (args, ctx) => {
        if (args.command !== testCommand || args.timeout !== undefined) return bash.run(args, ctx);
        const ws = ctx.workspace;
        const digest = ws.digest();
        if (!digest) return bash.run(args, ctx); // a tree the host will not read in full is not reused
        const key = AGENT_TESTS.key([ws.runtime.name, testCommand, JSON.stringify(env), JSON.stringify(ws.mounts.layers), digest]);
        const { value } = await AGENT_TESTS.through(this.reuse, key, () => bash.run(args, ctx), {
          keep: (res) => (!res.isError && !/^Command (timed out|killed)/.test(res.output) ? 256 + 2 * res.output.length : null),
        });
        return value;
      },
    };
  }
}
