// A Bash tool that remembers test runs: when the command is the task's test
// command and the workspace holds exactly the same change as an earlier run
// of the same task, the earlier output is returned instead of running the
// suite again. Sound because validated tasks have no flaky test and the
// output depends only on the files; it turns the G rollouts of a group, which
// all start by running the same failing suite, into one run.
import { createHash } from 'node:crypto';
import type { Tool, ToolResult } from '../agent/tools/types.js';
import { toolset } from '../agent/tools/index.js';
import { ChangeRefused } from '../workspace/scan.js';

export class TestRunCache {
  private readonly runs = new Map<string, ToolResult>();
  hits = 0;
  misses = 0;

  /** The leaf toolset with Bash replaced by the caching one. */
  tools(taskId: string, testCommand: string): Tool[] {
    return toolset('leaf').map((t) => (t.spec.function.name === 'Bash' ? this.wrap(t, taskId, testCommand) : t));
  }

  private wrap(bash: Tool, taskId: string, testCommand: string): Tool {
    return {
      spec: bash.spec,
      run: async (args, ctx) => {
        if (args.command !== testCommand || args.timeout !== undefined) return bash.run(args, ctx);
        let diff: string;
        try {
          diff = await ctx.workspace.diff();
        } catch (err) {
          if (err instanceof ChangeRefused) return bash.run(args, ctx); // a tree the host will not diff is not cached
          throw err;
        }
        const key = createHash('sha256').update(taskId).update('\0').update(testCommand).update('\0').update(diff).digest('hex');
        const hit = this.runs.get(key);
        if (hit) {
          this.hits++;
          return hit;
        }
        this.misses++;
        const res = await bash.run(args, ctx);
        if (!res.isError && !/^Command (timed out|killed)/.test(res.output)) {
          if (this.runs.size > 20000) this.runs.clear();
          this.runs.set(key, res);
        }
        return res;
      },
    };
  }
}
