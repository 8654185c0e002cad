// Bash: one command in a fresh `bash -c` inside the workspace's runtime (the
// sandbox), cwd the workspace root. Nothing persists between calls but files.
import { defineTool, schema, ToolError } from './define.js';

/** Output kept from one command before it is killed; the loop truncates further for the model. */
export const BASH_MAX_OUTPUT_BYTES = 2 * 1024 * 1024;

export const bashTool = defineTool({
  name: 'Bash',
  description:
    'Run a bash command in the repository root and return its exit code and combined stdout and stderr. ' +
    'Each call runs in a fresh shell: cd and exported variables do not carry over (chain with &&). ' +
    'There is no network and no interactive input. Long-running commands are killed at the timeout.',
  parameters: schema(
    {
      command: { type: 'string', description: 'The command line to run' },
      timeout: { type: 'integer', minimum: 1, description: 'Seconds before the command is killed (capped by the harness limit)' },
    },
    ['command'],
  ),
  async run(args, ctx) {
    const command = args.str('command');
    if (!command.trim()) throw new ToolError('the command is empty');
    const asked = args.optInt('timeout', 1);
    const timeoutMs = Math.min(ctx.commandTimeoutMs, asked !== undefined ? asked * 1000 : Infinity);
    // The inner shell gets stderr on stdout, so the model sees both interleaved as they happened.
    const res = await ctx.workspace.exec({
      argv: ['bash', '-c', 'exec bash -c "$1" 2>&1', 'bash', command],
      timeoutMs,
      ...(ctx.env ? { env: ctx.env } : {}),
      limits: { maxOutputBytes: BASH_MAX_OUTPUT_BYTES },
    });
    if (res.spawnError) throw new ToolError(`the command could not be started: ${res.spawnError}`);
    const output = res.stdout + res.stderr;
    const seconds = Math.round(timeoutMs / 100) / 10;
    let head: string;
    if (res.timedOut) head = `Command timed out after ${seconds} s and was killed.`;
    else if (res.outputLimited) head = `Command killed: it wrote more than ${BASH_MAX_OUTPUT_BYTES} bytes of output.`;
    else head = `Exit code: ${res.exitCode ?? `none (killed by ${res.signal ?? 'a signal'})`}`;
    return {
      output: `${head}\n${output === '' ? '(no output)' : output}`,
      display: `$ ${command.split('\n')[0]!.slice(0, 80)} -> ${res.timedOut ? 'timeout' : res.exitCode}`,
    };
  },
});
