// Harbor's Agent Trajectory Interchange Format (ATIF-v1.4). One step per
// system prompt and user instruction, and one agent step per model turn that
// holds the turn's tool calls, the observations that answered them, and its
// metrics: token counts, and the prompt and completion token ids and
// per-token logprobs when the model returned them (ATIF's RL fields).
import type { ChatMessage, ToolCall } from '../../model/types.js';
import { isRecord } from '../../util/guards.js';
import { readArguments } from '../actions.js';
import type { Trajectory } from '../trajectory.js';

export const ATIF_VERSION = 'ATIF-v1.4';

/** A v1.6 content part. */
export interface AtifPart {
  type: 'text' | 'image';
  text?: string;
  source?: { media_type: string; path: string };
}

export interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: 'system' | 'user' | 'agent';
  model_name?: string;
  message: string | AtifPart[];
  reasoning_content?: string;
  tool_calls?: { tool_call_id: string; function_name: string; arguments: Record<string, unknown> }[];
  observation?: { results: { source_call_id?: string; content?: string | AtifPart[] }[] };
  metrics?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_token_ids?: number[];
    completion_token_ids?: number[];
    logprobs?: number[];
    extra?: Record<string, unknown>;
  };
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: typeof ATIF_VERSION;
  session_id: string;
  agent: { name: string; version: string; model_name?: string; extra?: Record<string, unknown> };
  steps: AtifStep[];
  notes?: string;
  final_metrics?: { total_prompt_tokens?: number; total_completion_tokens?: number; total_steps?: number; extra?: Record<string, unknown> };
  extra?: Record<string, unknown>;
}

/** The tool calls of an assistant message: ChatMessage keeps them opaque, so each is checked. */
function recordedCalls(m: ChatMessage, index: number): Pick<ToolCall, 'id' | 'function'>[] {
  return (m.tool_calls ?? []).map((c) => {
    if (isRecord(c) && typeof c.id === 'string' && isRecord(c.function) && typeof c.function.name === 'string' && typeof c.function.arguments === 'string') {
      return { id: c.id, function: { name: c.function.name, arguments: c.function.arguments } };
    }
    throw new Error(`message ${index + 1} has a malformed tool call`);
  });
}

export function toAtif(t: Trajectory, opts: { sessionId?: string; agentVersion?: string } = {}): AtifTrajectory {
  const turns = new Map(t.turns.map((turn) => [turn.messageIndex, turn]));
  const steps: AtifStep[] = [];
  let current: AtifStep | undefined; // the agent step that observations attach to
  t.messages.forEach((m, i) => {
    const turn = turns.get(i);
    if (m.role === 'assistant') {
      const calls = recordedCalls(m, i);
      const raw: Record<string, string> = {};
      const step: AtifStep = { step_id: steps.length + 1, source: 'agent', model_name: t.meta.model, message: m.content ?? '' };
      if (turn) step.timestamp = turn.startedAt;
      if (m.reasoning_content !== undefined) step.reasoning_content = m.reasoning_content;
      if (calls.length) {
        // ATIF wants arguments as an object: ones the agent could not read are kept verbatim in the step's extra.
        step.tool_calls = calls.map((c) => {
          const read = readArguments(c.function.arguments);
          if (!('args' in read)) raw[c.id] = c.function.arguments;
          return { tool_call_id: c.id, function_name: c.function.name, arguments: 'args' in read ? read.args : {} };
        });
      }
      if (turn) {
        step.metrics = {
          ...(turn.usage?.promptTokens !== undefined ? { prompt_tokens: turn.usage.promptTokens } : {}),
          ...(turn.usage?.completionTokens !== undefined ? { completion_tokens: turn.usage.completionTokens } : {}),
          ...(turn.tokens?.promptIds ? { prompt_token_ids: turn.tokens.promptIds } : {}),
          ...(turn.tokens ? { completion_token_ids: turn.tokens.ids, logprobs: turn.tokens.logprobs } : {}),
          extra: { finish_reason: turn.finishReason, ms: turn.ms, ...(turn.logprob !== undefined ? { action_logprob: turn.logprob } : {}) },
        };
      }
      if (Object.keys(raw).length) step.extra = { raw_arguments: raw };
      steps.push(step);
      current = step;
    } else if (current && (m.role === 'tool' || m.role === 'user')) {
      // After the first agent turn, user messages are observations (the text protocol sends them as user turns).
      current.observation ??= { results: [] };
      current.observation.results.push({ ...(m.role === 'tool' && m.tool_call_id ? { source_call_id: m.tool_call_id } : {}), content: m.content ?? '' });
    } else {
      steps.push({ step_id: steps.length + 1, source: m.role === 'system' ? 'system' : 'user', message: m.content ?? '', timestamp: t.meta.startedAt });
    }
  });
  const sum = (f: (u: NonNullable<Trajectory['turns'][number]['usage']>) => number | undefined) =>
    t.turns.reduce((a, turn) => a + ((turn.usage && f(turn.usage)) ?? 0), 0);
  return {
    schema_version: ATIF_VERSION,
    session_id: opts.sessionId ?? `frognano-${t.meta.taskId ?? 'episode'}-${t.meta.startedAt}`,
    agent: {
      name: 'frognano',
      version: opts.agentVersion ?? '0.1.0',
      model_name: t.meta.model,
      extra: { toolset: t.meta.toolset, protocol: t.meta.protocol, limits: t.meta.limits },
    },
    steps,
    final_metrics: {
      total_prompt_tokens: sum((u) => u.promptTokens),
      total_completion_tokens: sum((u) => u.completionTokens),
      total_steps: steps.length,
      extra: { model_turns: t.turns.length },
    },
    extra: { stop_reason: t.stopReason ?? null, ended_at: t.endedAt ?? null, ...(t.meta.taskId !== undefined ? { task_id: t.meta.taskId } : {}) },
  };
}

/** The versions Harbor reads and writes (harbor 0.20.0, models/trajectories/trajectory.py); later ones only add fields. */
export const ATIF_VERSIONS = ['ATIF-v1.0', 'ATIF-v1.1', 'ATIF-v1.2', 'ATIF-v1.3', 'ATIF-v1.4', 'ATIF-v1.5', 'ATIF-v1.6', 'ATIF-v1.7'] as const;

/** A message or result as text: since v1.6 it may be a list of parts (images are named, not embedded). */
function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v
    .map((part: unknown) =>
      isRecord(part) && part.type === 'text' && typeof part.text === 'string' ? part.text : isRecord(part) && part.type === 'image' ? '[image]' : '',
    )
    .join('\n');
}

/** The chat messages of an ATIF trajectory (any version Harbor writes): results with a call id become tool messages, the others user messages. */
export function fromAtif(a: AtifTrajectory | { schema_version: string; steps: AtifStep[] }): ChatMessage[] {
  if (!(ATIF_VERSIONS as readonly string[]).includes(a.schema_version))
    throw new Error(`unsupported ATIF version ${String(a.schema_version)}; read: ${ATIF_VERSIONS.join(', ')}`);
  const out: ChatMessage[] = [];
  for (const s of a.steps) {
    if (s.source !== 'agent') {
      out.push({ role: s.source, content: text(s.message) });
      // Since v1.2 a system or user step may carry an observation of its own.
      for (const r of s.observation?.results ?? []) out.push({ role: 'user', content: text(r.content) });
      continue;
    }
    const raw = isRecord(s.extra?.raw_arguments) ? s.extra.raw_arguments : {};
    const calls: ToolCall[] = (s.tool_calls ?? []).map((c) => {
      const verbatim = raw[c.tool_call_id];
      return {
        id: c.tool_call_id,
        type: 'function',
        function: { name: c.function_name, arguments: typeof verbatim === 'string' ? verbatim : JSON.stringify(c.arguments) },
      };
    });
    out.push({
      role: 'assistant',
      content: text(s.message),
      ...(calls.length ? { tool_calls: calls } : {}),
      ...(s.reasoning_content !== undefined ? { reasoning_content: s.reasoning_content } : {}),
    });
    for (const r of s.observation?.results ?? []) {
      out.push(r.source_call_id ? { role: 'tool', tool_call_id: r.source_call_id, content: text(r.content) } : { role: 'user', content: text(r.content) });
    }
  }
  return out;
}
