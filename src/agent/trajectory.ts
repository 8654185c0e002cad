// Trajectories: the linear message history of one episode plus a record of
// each model turn (timing, usage, and token ids / logprobs when the model
// side returned them, since training never re-tokenizes text). A Recorder
// appends one JSON line per event as the episode goes, so a crash keeps
// everything up to it; loadTrajectory rebuilds the trajectory from the lines.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ChatMessage, TurnTokens } from '../model/types.js';
import type { AgentLimits } from './limits.js';
import { errorMessage } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { isChatMessage } from '../model/openai.js';

export const TRAJECTORY_SCHEMA = 'frognano.trajectory/v1';

/** Why an episode ended. */
export type StopReason = 'submitted' | 'step-limit' | 'turn-token-limit' | 'context-limit' | 'wall-time' | 'format-errors' | 'model-error' | 'aborted';

export interface TrajectoryMeta {
  taskId?: string;
  model: string;
  toolset: string;
  /** 'tools': native tool calls; 'text': actions parsed from the reply text. */
  protocol: 'tools' | 'text';
  startedAt: string;
  limits: AgentLimits;
}

export interface TurnRecord {
  index: number;
  /** Position of this turn's assistant message in `messages`. */
  messageIndex: number;
  startedAt: string;
  ms: number;
  usage?: { promptTokens?: number; completionTokens?: number };
  tokens?: TurnTokens;
  logprob?: number;
  finishReason: string | null;
}

export interface Trajectory {
  schema: typeof TRAJECTORY_SCHEMA;
  meta: TrajectoryMeta;
  messages: ChatMessage[];
  turns: TurnRecord[];
  stopReason?: StopReason;
  endedAt?: string;
  /** The model's error, for 'model-error'. */
  error?: string;
}

export type TrajectoryEvent =
  | { type: 'start'; schema: typeof TRAJECTORY_SCHEMA; meta: TrajectoryMeta }
  | { type: 'message'; message: ChatMessage }
  | { type: 'turn'; turn: TurnRecord }
  | { type: 'end'; stopReason: StopReason; endedAt: string; error?: string };

export function newTrajectory(meta: TrajectoryMeta): Trajectory {
  return { schema: TRAJECTORY_SCHEMA, meta, messages: [], turns: [] };
}

/** Applies one event to a trajectory (the in-memory and the on-disk copy are built the same way). */
export function applyEvent(t: Trajectory, e: TrajectoryEvent): void {
  switch (e.type) {
    case 'start':
      t.meta = e.meta;
      break;
    case 'message':
      t.messages.push(e.message);
      break;
    case 'turn':
      t.turns.push(e.turn);
      break;
    case 'end':
      t.stopReason = e.stopReason;
      t.endedAt = e.endedAt;
      if (e.error !== undefined) t.error = e.error;
      break;
  }
}

/** Anything that takes events as an episode goes. */
export interface EventSink {
  record(e: TrajectoryEvent): void;
}

/** Appends each event as one JSON line to a file (created, or emptied, on construction). */
export class Recorder implements EventSink {
  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
  }

  record(e: TrajectoryEvent): void {
    // Synchronous on purpose: the line is on disk before the episode moves on.
    appendFileSync(this.path, `${JSON.stringify(e)}\n`);
  }
}

/** Rebuilds a trajectory from recorder lines. A torn last line (a crash mid-write) is ignored. */
export function parseTrajectoryLines(text: string): Trajectory {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let t: Trajectory | undefined;
  lines.forEach((line, i) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      if (i === lines.length - 1) return;
      throw new Error(`trajectory line ${i + 1} is not JSON: ${errorMessage(err)}`);
    }
    if (!isEvent(parsed)) throw new Error(`trajectory line ${i + 1} is not a trajectory event`);
    const e = parsed;
    if (e.type === 'start') {
      if (e.schema !== TRAJECTORY_SCHEMA) throw new Error(`unknown trajectory schema ${String(e.schema)}`);
      t = newTrajectory(e.meta);
    } else if (!t) throw new Error('trajectory does not begin with a start event');
    else applyEvent(t, e);
  });
  if (!t) throw new Error('trajectory has no start event');
  return t;
}

/** An event's shape as far as the loader relies on it: its type and the field that type carries. */
function isEvent(x: unknown): x is TrajectoryEvent {
  if (!isRecord(x)) return false;
  switch (x.type) {
    case 'start':
      return isRecord(x.meta);
    case 'message':
      return isChatMessage(x.message);
    case 'turn':
      return isRecord(x.turn) && typeof x.turn.index === 'number';
    case 'end':
      return typeof x.stopReason === 'string';
    default:
      return false;
  }
}

export function loadTrajectory(path: string): Trajectory {
  return parseTrajectoryLines(readFileSync(path, 'utf8'));
}
