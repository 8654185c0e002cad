// mini-swe-agent's trajectory file (trajectory_format mini-swe-agent-1.1):
// {info, messages, trajectory_format}. Messages are OpenAI messages with an
// `extra` field; the run ends with an `exit` message carrying the status and
// the submission, as mini's own agent writes it.
import { CHAT_ROLES } from '../../model/openai.js';
import type { ChatMessage } from '../../model/types.js';
import { isOneOf } from '../../util/guards.js';
import type { StopReason, Trajectory } from '../trajectory.js';

export const MINI_FORMAT = 'mini-swe-agent-1.1';

export interface MiniMessage {
  role: string;
  content: string | null;
  tool_calls?: unknown[];
  tool_call_id?: string;
  reasoning_content?: string;
  extra?: Record<string, unknown>;
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
}

/** mini's exit statuses are the names of the exceptions that end its runs. */
const EXIT_STATUS: Record<StopReason, string> = {
  submitted: 'Submitted',
  'step-limit': 'LimitsExceeded',
  'turn-token-limit': 'LimitsExceeded',
  'context-limit': 'LimitsExceeded',
  'wall-time': 'TimeExceeded',
  'format-errors': 'FormatError',
  'model-error': 'ModelError',
  aborted: 'UserInterruption',
};

export function toMiniSweAgent(t: Trajectory, opts: { submission?: string } = {}): MiniTrajectory {
  const byMessage = new Map(t.turns.map((turn) => [turn.messageIndex, turn]));
  const messages: MiniMessage[] = t.messages.map((m, i) => {
    const turn = byMessage.get(i);
    const { tool_calls, ...rest } = m;
    const base: MiniMessage = { ...rest, ...(tool_calls?.length ? { tool_calls } : {}) };
    if (!turn) return base;
    return { ...base, extra: { timestamp: turn.startedAt, ms: turn.ms, finish_reason: turn.finishReason, ...(turn.usage ? { usage: turn.usage } : {}) } };
  });
  const exitStatus = t.stopReason ? EXIT_STATUS[t.stopReason] : 'Unfinished';
  const submission = opts.submission ?? '';
  messages.push({ role: 'exit', content: submission, extra: { exit_status: exitStatus, submission } });
  return {
    info: {
      model_stats: { instance_cost: 0, api_calls: t.turns.length },
      config: { agent: { ...t.meta.limits }, agent_type: 'frognano.runAgent', model: { model_name: t.meta.model } },
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
