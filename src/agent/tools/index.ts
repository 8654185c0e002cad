// Toolsets: `leaf`, the five tools of FrogNano's own evaluation harness, and
// `bash`, a single tool as in mini-swe-agent.
import type { ToolSpec } from '../../model/types.js';
import { bashTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { readTool } from './read.js';
import type { Tool } from './types.js';
import { writeTool } from './write.js';

export type ToolsetName = 'leaf' | 'bash';

export const TOOLSETS: Readonly<Record<ToolsetName, readonly Tool[]>> = {
  leaf: [readTool, writeTool, editTool, globTool, bashTool],
  bash: [bashTool],
};

export function isToolsetName(name: string): name is ToolsetName {
  return Object.hasOwn(TOOLSETS, name);
}

export function toolset(name: string): Tool[] {
  if (!isToolsetName(name)) throw new Error(`unknown toolset "${name}"; use ${Object.keys(TOOLSETS).join(' or ')}`);
  return [...TOOLSETS[name]];
}

export function toolSpecs(tools: readonly Tool[]): ToolSpec[] {
  return tools.map((t) => t.spec);
}

export function toolName(tool: Tool): string {
  return tool.spec.function.name;
}

export type { Tool, ToolContext, ToolResult } from './types.js';
