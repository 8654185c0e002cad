// The dev server's bookkeeping, shaped like SkyRL's tables (skyrl/tinker/db_models.py):
// sessions and their heartbeats, models, futures with (model_id, seq_id)
// de-duplication, checkpoints and sampling sessions; plus one FIFO work queue
// per model, so a model's futures complete in the order they were created.
import { canonicalJson } from '../util/canonical-json.js';
import { randomBytes } from 'node:crypto';
import { errorMessage } from '../util/errors.js';
import type { DevModel } from './backend.js';

/** An HTTP answer other than 200, with FastAPI's `{detail}` body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export type RequestType =
  | 'create_model'
  | 'forward_backward'
  | 'forward'
  | 'optim_step'
  | 'save_weights_for_sampler'
  | 'save_weights'
  | 'load_weights'
  | 'sample'
  | 'unload_model';

export interface FutureRecord {
  id: number;
  type: RequestType;
  /** '' for base-model sampling, as in SkyRL. */
  modelId: string;
  seqId?: number;
  /** The request's data in canonical JSON: a reused seq_id must come with the same. */
  dataKey: string;
  status: 'pending' | 'completed' | 'failed';
  result?: unknown;
  error?: string;
  waiters: Set<() => void>;
}

export interface SessionRecord {
  id: string;
  tags: string[];
  lastHeartbeatMs: number;
  status: 'active' | 'expired';
}

export interface ModelRecord {
  id: string;
  sessionId: string;
  baseModel: string;
  lora: { rank: number; alpha: number; seed: number; train_attn: boolean; train_mlp: boolean; train_unembed: boolean };
  role: string;
  status: string;
  /** Present while loaded; cleared by unload_model and by session expiry. */
  model?: DevModel;
}

export type CheckpointKind = 'training' | 'sampler';

export interface CheckpointRecord {
  status: 'pending' | 'completed' | 'failed';
  error?: string;
  /** Training checkpoints: model.save(true). */
  state?: unknown;
  /** Sampler checkpoints: the frozen copy that samples. */
  sampler?: DevModel;
}

export interface SamplingSessionRecord {
  id: string;
  sessionId: string;
  seq: number;
  baseModel?: string;
  modelPath?: string;
}

export const newId = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

export class DevState {
  readonly sessions = new Map<string, SessionRecord>();
  readonly models = new Map<string, ModelRecord>();
  readonly futures = new Map<number, FutureRecord>();
  readonly checkpoints = new Map<string, CheckpointRecord>();
  readonly samplingSessions = new Map<string, SamplingSessionRecord>();
  private readonly bySeq = new Map<string, number>();
  private readonly queues = new Map<string, Promise<void>>();
  private nextRequestId = 1;

  constructor(private readonly opts: { workDelayMs: number; log: (message: string) => void }) {}

  checkpointKey(modelId: string, kind: CheckpointKind, checkpointId: string): string {
    return `${modelId}/${kind}/${checkpointId}`;
  }

  /** The model, or SkyRL's 404. */
  model(modelId: string): ModelRecord {
    const model = this.models.get(modelId);
    if (!model) throw new HttpError(404, 'Model not found');
    return model;
  }

  session(sessionId: string): SessionRecord {
    const session = this.sessions.get(sessionId);
    if (!session) throw new HttpError(404, 'Session not found');
    return session;
  }

  /** Requests a model has had besides its creation: load_weights is allowed only while this is 0. */
  priorRequests(modelId: string): number {
    let n = 0;
    for (const f of this.futures.values()) if (f.modelId === modelId && f.type !== 'create_model') n++;
    return n;
  }

  /**
   * A new future whose `work` runs on the model's queue, or, for a (model_id, seq_id) seen before,
   * the first one's id (409 when the type or data differ, as SkyRL's create_future does).
   */
  createFuture(type: RequestType, modelId: string, data: unknown, seqId: number | undefined, work: () => unknown): number {
    const dataKey = canonicalJson(data);
    if (seqId !== undefined) {
      const earlier = this.futures.get(this.bySeq.get(`${modelId}\u0000${seqId}`) ?? -1);
      if (earlier) {
        if (earlier.type !== type || earlier.dataKey !== dataKey) throw new HttpError(409, 'Training request sequence number was reused');
        return earlier.id;
      }
    }
    const future: FutureRecord = { id: this.nextRequestId++, type, modelId, seqId, dataKey, status: 'pending', waiters: new Set() };
    this.futures.set(future.id, future);
    if (seqId !== undefined) this.bySeq.set(`${modelId}\u0000${seqId}`, future.id);
    const queued = (this.queues.get(modelId) ?? Promise.resolve()).then(async () => {
      if (this.opts.workDelayMs > 0) await sleep(this.opts.workDelayMs);
      try {
        this.finish(future, 'completed', await work());
      } catch (err) {
        this.opts.log(`tinker dev server: ${type} (request ${future.id}) failed: ${errorMessage(err)}`);
        this.finish(future, 'failed', undefined, errorMessage(err));
      }
    });
    this.queues.set(modelId, queued);
    return future.id;
  }

  private finish(future: FutureRecord, status: 'completed' | 'failed', result?: unknown, error?: string): void {
    future.status = status;
    future.result = result;
    future.error = error;
    for (const wake of future.waiters) wake();
    future.waiters.clear();
  }

  /** Waits up to `timeoutMs` for a future to finish: the record, or undefined when it is still pending. */
  async waitFuture(future: FutureRecord, timeoutMs: number, gone: AbortSignal): Promise<FutureRecord | undefined> {
    if (future.status !== 'pending') return future;
    await new Promise<void>((done) => {
      const wake = () => {
        clearTimeout(timer);
        gone.removeEventListener('abort', wake);
        future.waiters.delete(wake);
        done();
      };
      const timer = setTimeout(wake, timeoutMs);
      gone.addEventListener('abort', wake);
      future.waiters.add(wake);
    });
    return future.status === 'pending' ? undefined : future;
  }

  /** SkyRL's cleanup_stale_sessions: models of sessions silent past the timeout are unloaded, the sessions expire. */
  expireStaleSessions(nowMs: number, timeoutMs: number): void {
    for (const session of this.sessions.values()) {
      if (session.status !== 'active' || nowMs - session.lastHeartbeatMs <= timeoutMs) continue;
      for (const model of this.models.values()) {
        if (model.sessionId !== session.id || model.status === 'unloaded') continue;
        model.model = undefined;
        model.status = 'unloaded';
        this.opts.log(`tinker dev server: auto-unloaded stale model ${model.id} from session ${session.id}`);
      }
      session.status = 'expired';
      this.opts.log(`tinker dev server: expired stale session ${session.id}`);
    }
  }

  /** Lets queued work finish (for close()). */
  async drain(): Promise<void> {
    await Promise.all(this.queues.values());
  }
}
