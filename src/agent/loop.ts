// The agent loop: ask the model, run its actions, show it the results, until
// the model submits or a limit ends the episode. The message history is
// linear and is itself the trajectory; every change to it is also an event
// for the recorder, so a crashed episode leaves a loadable partial file.
import type { ChatMessage, Model, ModelTurn, ToolCall } from '../model/types.js';
import type { Workspace } from '../workspace/workspace.js';
import { type Action, nativeCalls, parseNativeCall, runAction } from './actions.js';
import { EpisodeClock } from './clock.js';
import { ContextMeter } from './context.js';
import { type AgentLimits, DEFAULT_AGENT_LIMITS, MAX_FORMAT_ERRORS } from './limits.js';
import { defaultSystemPrompt } from './prompts.js';
import { parseTextReply } from './text-protocol.js';
import { type Tool, type ToolsetName, toolset as makeToolset, toolSpecs } from './tools/index.js';
import { applyEvent, type EventSink, newTrajectory, type StopReason, type Trajectory, type TrajectoryEvent, type TurnRecord } from './trajectory.js';

export interface AgentOptions<D = unknown> {
  model: Model<D>;
  workspace: Workspace;
  instruction: string;
  /** Default 'leaf'. */
  toolset?: ToolsetName;
  /** Replaces the toolset's tools (same names and schemas), e.g. a Bash that caches test runs. */
  tools?: Tool[];
  limits?: Partial<AgentLimits>;
  /** Replaces the default system prompt (for a text-protocol model it must then teach the action syntax). */
  systemPrompt?: string;
  taskId?: string;
  /** Variables every command of the agent runs with (the environment's test variables). */
  env?: Record<string, string>;
  recorder?: EventSink;
  signal?: AbortSignal;
  /** Called after each step that ran actions (not for the reply that ends the episode). */
  onStep?: (step: StepInfo) => void;
}

export interface StepInfo {
  /** 1-based number of the step just finished. */
  step: number;
  turn: ModelTurn;
  /** What the step added after the assistant message: tool results, or user messages under the text protocol. */
  observations: ChatMessage[];
  elapsedMs: number;
}

/** One turn as a learner sees it (rl/contract.ts Turn): the tools called and the model's learner data. */
export interface LearnerTurn<D> {
  tools: string[];
  learner?: D;
}

export interface AgentResult<D = unknown> {
  stopReason: StopReason;
  steps: number;
  trajectory: Trajectory;
  /** Every model turn in order, with the learner data it carried. */
  turns: LearnerTurn<D>[];
  /** The model's error message, for 'model-error'. */
  error?: string;
  /** What the model threw, for 'model-error' (an InfraError makes the rollout an infrastructure failure). */
  cause?: unknown;
}

/** The actions of one reply, or why the episode ends with it. */
type Decision = { submit: true } | { submit: false; actions: Action[]; formatError?: string };

function decide(message: ChatMessage, calls: ToolCall[] | undefined, toolsetName: ToolsetName, tools: readonly Tool[]): Decision {
  if (calls) {
    return calls.length === 0 ? { submit: true } : { submit: false, actions: calls.map((c) => parseNativeCall(c, tools)) };
  }
  const parsed = parseTextReply(typeof message.content === 'string' ? message.content : null, toolsetName, tools);
  if (parsed.kind === 'submit') return { submit: true };
  if (parsed.kind === 'format-error') return { submit: false, actions: [], formatError: parsed.message };
  return { submit: false, actions: [{ name: parsed.action.name, args: parsed.action.arguments }] };
}

function turnRecord(turn: ModelTurn, index: number, messageIndex: number, t0: number): TurnRecord {
  return {
    index,
    messageIndex,
    startedAt: new Date(t0).toISOString(),
    ms: Date.now() - t0,
    finishReason: turn.finishReason,
    ...(turn.usage ? { usage: turn.usage } : {}),
    ...(turn.tokens ? { tokens: turn.tokens } : {}),
    ...(turn.logprob !== undefined ? { logprob: turn.logprob } : {}),
  };
}

export async function runAgent<D>(opts: AgentOptions<D>): Promise<AgentResult<D>> {
  const limits: AgentLimits = { ...DEFAULT_AGENT_LIMITS, ...opts.limits };
  const toolsetName = opts.toolset ?? 'leaf';
  const tools = opts.tools ?? makeToolset(toolsetName);
  const native = opts.model.supportsTools;
  const specs = native ? toolSpecs(tools) : undefined;
  const ws = opts.workspace;
  const workdir = ws.runtime.workdir(ws.mounts);
  const clock = new EpisodeClock(limits.wallTimeMs, opts.signal);
  const traj = newTrajectory({
    ...(opts.taskId !== undefined ? { taskId: opts.taskId } : {}),
    model: opts.model.name,
    toolset: toolsetName,
    protocol: native ? 'tools' : 'text',
    startedAt: new Date(clock.started).toISOString(),
    limits,
  });
  const emit = (e: TrajectoryEvent) => {
    applyEvent(traj, e);
    opts.recorder?.record(e);
  };
  const say = (message: ChatMessage) => emit({ type: 'message', message });
  const context = new ContextMeter(traj.messages, specs);
  let steps = 0;
  const turns: LearnerTurn<D>[] = [];
  const stop = (stopReason: StopReason, error?: string, cause?: unknown): AgentResult<D> => {
    emit({ type: 'end', stopReason, endedAt: new Date().toISOString(), ...(error !== undefined ? { error } : {}) });
    return { stopReason, steps, trajectory: traj, turns, ...(error !== undefined ? { error, cause } : {}) };
  };

  emit({ type: 'start', schema: traj.schema, meta: traj.meta });
  say({ role: 'system', content: opts.systemPrompt ?? defaultSystemPrompt({ toolset: toolsetName, tools, native, workdir }) });
  say({ role: 'user', content: opts.instruction });
  let formatErrors = 0;
  try {
    for (;;) {
      const limit = clock.interrupted() ?? (steps >= limits.maxSteps ? 'step-limit' : context.tokens() > limits.maxContextTokens ? 'context-limit' : undefined);
      if (limit) return stop(limit);
      const t0 = Date.now();
      let turn: ModelTurn<D>;
      try {
        turn = await clock.race(
          opts.model.turn({
            messages: [...traj.messages],
            maxTokens: limits.maxTokensPerTurn,
            signal: clock.signal,
            ...(specs ? { tools: specs } : {}),
          }),
        );
      } catch (err) {
        const cut = clock.interrupted();
        return cut ? stop(cut) : stop('model-error', err instanceof Error ? err.message : String(err), err);
      }
      const calls = native ? nativeCalls(turn.message, steps) : undefined;
      turns.push({ tools: (calls ?? []).map((c) => c.function.name), ...(turn.learner !== undefined ? { learner: turn.learner } : {}) });
      const message: ChatMessage = { ...turn.message, ...(calls?.length ? { tool_calls: calls } : {}) };
      emit({ type: 'turn', turn: turnRecord(turn, steps, traj.messages.length, t0) });
      say(message);
      context.observe(turn.usage, traj.messages.length - 1);
      steps++;
      if (turn.finishReason === 'length') return stop('turn-token-limit');

      const decision = decide(message, calls, toolsetName, tools);
      if (decision.submit) return stop('submitted');
      const observations: ChatMessage[] = decision.formatError !== undefined ? [{ role: 'user', content: decision.formatError }] : [];
      for (const action of decision.actions) {
        const commandTimeoutMs = Math.max(1000, Math.min(limits.commandTimeoutMs, clock.remainingMs()));
        const ctx = { workspace: ws, workdir, commandTimeoutMs, signal: clock.signal, ...(opts.env ? { env: opts.env } : {}) };
        const { output } = await runAction(tools, action, ctx, limits.maxObservationChars);
        observations.push(native ? { role: 'tool', tool_call_id: action.id!, content: output } : { role: 'user', content: output });
      }
      observations.forEach(say);
      opts.onStep?.({ step: steps, turn, observations, elapsedMs: clock.elapsedMs() });
      const malformed = decision.formatError !== undefined || decision.actions.some((a) => a.error !== undefined);
      formatErrors = malformed ? formatErrors + 1 : 0;
      if (formatErrors >= MAX_FORMAT_ERRORS) return stop('format-errors');
    }
  } finally {
    clock.dispose();
  }
}
