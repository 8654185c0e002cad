// One place that turns a tool's spec and body into a Tool: arguments are
// checked here (a bad argument becomes an error result the model can read),
// and anything the body throws becomes an error result instead of a crash.
import type { ToolSpec } from '../../model/types.js';
import type { Tool, ToolContext, ToolResult } from './types.js';
import { errnoCode, errorMessage } from '../../util/errors.js';

/** An error meant for the model: its message is the whole observation. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Typed access to a call's parsed JSON arguments. */
export class Args {
  constructor(private readonly raw: Record<string, unknown>) {}

  str(name: string): string {
    const v = this.raw[name];
    if (typeof v !== 'string') throw new ToolError(`argument "${name}" is required and must be a string`);
    return v;
  }

  optStr(name: string): string | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new ToolError(`argument "${name}" must be a string`);
    return v;
  }

  /** Integers may arrive as numbers or numeric strings (small models do both). */
  optInt(name: string, min: number): number | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < min) {
      throw new ToolError(`argument "${name}" must be an integer >= ${min}`);
    }
    return n;
  }

  optBool(name: string): boolean | undefined {
    const v = this.raw[name];
    if (v === undefined || v === null) return undefined;
    if (v === 'true' || v === 'false') return v === 'true';
    if (typeof v !== 'boolean') throw new ToolError(`argument "${name}" must be true or false`);
    return v;
  }
}

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  run(args: Args, ctx: ToolContext): Promise<ToolResult | string>;
}

export function defineTool(def: ToolDefinition): Tool {
  const spec: ToolSpec = {
    type: 'function',
    function: { name: def.name, description: def.description, parameters: def.parameters },
  };
  return {
    spec,
    async run(args, ctx) {
      try {
        const result = await def.run(new Args(args), ctx);
        return typeof result === 'string' ? { output: result } : result;
      } catch (err) {
        if (err instanceof ToolError) return { output: `Error: ${err.message}`, isError: true };
        const code = errnoCode(err);
        // System errors name host paths; show the model its own view of them.
        const message = errorMessage(err).replaceAll(ctx.workspace.root, ctx.workdir);
        return { output: `Error: ${def.name} failed${code ? ` (${code})` : ''}: ${message}`, isError: true };
      }
    },
  };
}

/** A JSON Schema object with the given properties, `required` listing the mandatory ones. */
export function schema(properties: Record<string, Record<string, unknown>>, required: string[]): Record<string, unknown> {
  return { type: 'object', properties, required, additionalProperties: false };
}
