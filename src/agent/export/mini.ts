// mini-swe-agent's trajectory file as its DefaultAgent writes it (version
// 2.4.6, trajectory_format mini-swe-agent-1.1): {info, messages,
// trajectory_format, instance_id}. Assistant messages carry `extra.actions`
// (the commands run), the response's usage and a timestamp in epoch seconds;
// observations answer tool calls by id (or come as user messages under the
// text protocol); the run ends with an `exit` message holding the status and
// the submission, the final diff. docs/exports.md names the commit read.
import { CHAT_ROLES } from '../../model/openai.js';
import type { ChatMessage } from '../../model/types.js';
import { isOneOf, isRecord } from '../../util/guards.js';
import { readArguments } from '../actions.js';
import { parseTextReply } from '../text-protocol.js';
import { isToolsetName, toolset } from '../tools/index.js';
import type { StopReason, Trajectory, TurnRecord } from '../trajectory.js';

export const MINI_FORMAT = 'mini-swe-agent-1.1';

export interface MiniMessage {
  role: string;
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  reasoning_content?: string;
  extra?: Record<string, unknown>;
}

/** One command an assistant message ran: mini runs bash only, so another tool is written as its name and arguments. */
export interface MiniAction {
  command: string;
  tool_call_id?: string;
}

export interface MiniTrajectory {
  info: {
    model_stats: { instance_cost: number; api_calls: number };
    config: Record<string, unknown>;
    mini_version: string;
    exit_status: string;
    submission: string;
    /** FrogNano's own record of the run (mini ignores unknown keys). */
    frognano: { stop_reason?: StopReason; task_id?: string; toolset: string; protocol: string; started_at: string; ended_at?: string };
  };
  messages: MiniMessage[];
  trajectory_format: typeof MINI_FORMAT;
  instance_id?: string;
}

/** mini's exit statuses: the names of what ends its runs (an uncaught exception's class name for a model failure). */
const EXIT_STATUS: Record<StopReason, string> = {
  submitted: 'Submitted',
  'step-limit': 'LimitsExceeded',
  'turn-token-limit': 'LimitsExceeded',
  'context-limit': 'ContextWindowExceededError',
  'wall-time': 'TimeExceeded',
  'format-errors': 'RepeatedFormatError',
  'model-error': 'ModelError',
  aborted: 'KeyboardInterrupt',
};

function actionCommand(name: string, args: unknown): string {
  return name.toLowerCase() === 'bash' && isRecord(args) && typeof args.command === 'string' ? args.command : `${name} ${JSON.stringify(args)}`;
}

/** The commands of an assistant message: its tool calls, or the action a text-protocol reply carries. */
function actionsOf(m: ChatMessage, t: Trajectory): MiniAction[] {
  if (m.tool_calls?.length) {
    return m.tool_calls.flatMap((c) => {
      if (!isRecord(c) || !isRecord(c.function) || typeof c.function.name !== 'string') return [];
      const read = readArguments(c.function.arguments);
      const args = 'args' in read ? read.args : c.function.arguments; // unreadable: kept as the text it was
      return [{ command: actionCommand(c.function.name, args), ...(typeof c.id === 'string' ? { tool_call_id: c.id } : {}) }];
    });
  }
  if (t.meta.protocol !== 'text' || !isToolsetName(t.meta.toolset)) return [];
  const parsed = parseTextReply(m.content, t.meta.toolset, toolset(t.meta.toolset));
  return parsed.kind === 'action' ? [{ command: actionCommand(parsed.action.name, parsed.action.arguments) }] : [];
}

/** What mini keeps of a model call: the usage in the response's shape, and when it answered (epoch seconds). */
function turnExtra(turn: TurnRecord, model: string): Record<string, unknown> {
  const prompt = turn.usage?.promptTokens ?? turn.tokens?.promptIds?.length;
  const completion = turn.usage?.completionTokens ?? turn.tokens?.ids.length;
  const usage =
    prompt !== undefined || completion !== undefined
      ? { prompt_tokens: prompt ?? 0, completion_tokens: completion ?? 0, total_tokens: (prompt ?? 0) + (completion ?? 0) }
      : undefined;
  return {
    response: { model, choices: [{ index: 0, finish_reason: turn.finishReason }], ...(usage ? { usage } : {}) },
    cost: 0,
    timestamp: (Date.parse(turn.startedAt) + turn.ms) / 1000,
    ms: turn.ms,
  };
}

/** The episode as mini-swe-agent's file; `submission` is the final diff (empty when the episode left none). */
export function toMiniSweAgent(t: Trajectory, opts: { submission?: string } = {}): MiniTrajectory {
  const byMessage = new Map(t.turns.map((turn) => [turn.messageIndex, turn]));
  const messages: MiniMessage[] = t.messages.map((m, i) => {
    const { tool_calls, ...rest } = m;
    const base: MiniMessage = { ...rest, ...(tool_calls?.length ? { tool_calls } : {}) };
    if (m.role !== 'assistant') return base;
    const turn = byMessage.get(i);
    return { ...base, extra: { actions: actionsOf(m, t), ...(turn ? turnExtra(turn, t.meta.model) : {}) } };
  });
  const exitStatus = t.stopReason ? EXIT_STATUS[t.stopReason] : 'Unfinished';
  const submission = opts.submission ?? '';
  messages.push({ role: 'exit', content: submission || exitStatus, extra: { exit_status: exitStatus, submission } });
  const { maxSteps, wallTimeMs, ...limits } = t.meta.limits;
  return {
    info: {
      model_stats: { instance_cost: 0, api_calls: t.turns.length },
      config: {
        agent: { step_limit: maxSteps, cost_limit: 0, wall_time_limit_seconds: Math.round(wallTimeMs / 1000), frognano_limits: limits },
        agent_type: 'frognano.runAgent',
        model: { model_name: t.meta.model },
        model_type: 'frognano',
        environment: { cwd: '/workspace', toolset: t.meta.toolset },
        environment_type: 'frognano.workspace',
      },
      mini_version: 'frognano',
      exit_status: exitStatus,
      submission,
      frognano: {
        ...(t.stopReason ? { stop_reason: t.stopReason } : {}),
        ...(t.meta.taskId !== undefined ? { task_id: t.meta.taskId } : {}),
        toolset: t.meta.toolset,
        protocol: t.meta.protocol,
        started_at: t.meta.startedAt,
        ...(t.endedAt ? { ended_at: t.endedAt } : {}),
      },
    },
    messages,
    trajectory_format: MINI_FORMAT,
    ...(t.meta.taskId !== undefined ? { instance_id: t.meta.taskId } : {}),
  };
}

/** The chat messages of a mini trajectory (the exit message and `extra` fields dropped). */
export function fromMiniSweAgent(m: MiniTrajectory): { messages: ChatMessage[]; stopReason?: StopReason; submission: string } {
  if (m.trajectory_format !== MINI_FORMAT) throw new Error(`not a ${MINI_FORMAT} trajectory: ${String(m.trajectory_format)}`);
  const messages = m.messages
    .filter((x) => x.role !== 'exit')
    .map(({ extra: _extra, role, ...rest }): ChatMessage => {
      if (!isOneOf(CHAT_ROLES, role)) throw new Error(`a ${MINI_FORMAT} message has the unknown role "${role}"`);
      return { ...rest, role };
    });
  const stopReason = m.info.frognano?.stop_reason;
  return { messages, submission: m.info.submission ?? '', ...(stopReason ? { stopReason } : {}) };
}
