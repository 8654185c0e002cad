// The dev server's endpoints, each doing what SkyRL's skyrl/tinker/api.py does
// for it (status codes and `detail` texts included) and queueing the model work
// its engine would do (engine.py). Bodies arrive already checked against wire.ts.
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import * as W from '../tinker/wire.js';
import type { DevModel } from './backend.js';
import { type CheckpointKind, type CheckpointRecord, type DevState, HttpError, newId } from './state.js';
import { checkpointFile, loaded, readCheckpoint, runModelPass, runSample, writeCheckpoint } from './work.js';

export const DEV_SERVER_NOTE = 'frognano tinker dev server: a tiny in-process model, not SkyRL; for tests and local development only';

export interface RouteConfig {
  baseModel: string;
  makeModel: (seed: number) => DevModel;
  baseSeed: number;
  maxLoraRank: number;
  checkpointDir?: string;
  futureWaitMs: number;
}

export interface Route {
  method: 'GET' | 'POST';
  /** The 200 body; throws HttpError or BodyInvalid for other answers. `gone` fires when the client hangs up. */
  run: (body: unknown, gone: AbortSignal) => Promise<unknown>;
}

/** A body that does not match its schema: the server answers 422 with these issues, as FastAPI does. */
export class BodyInvalid extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super('request body does not match its schema');
  }
}

/** A route whose handler sees the body as its schema's output. */
function post<S extends z.ZodType>(schema: S, handle: (body: z.output<S>, gone: AbortSignal) => unknown): Route {
  return {
    method: 'POST',
    run: async (body, gone) => {
      const parsed = schema.safeParse(body);
      if (!parsed.success) throw new BodyInvalid(parsed.error.issues);
      return handle(parsed.data, gone);
    },
  };
}

const get = (handle: () => unknown): Route => ({ method: 'GET', run: async () => handle() });
const futureResponse = (id: number) => ({ future_id: String(id), status: 'pending', request_id: String(id) });

export function makeRoutes(state: DevState, cfg: RouteConfig): Record<string, Route> {
  let baseInstance: DevModel | undefined;
  const base = () => (baseInstance ??= cfg.makeModel(cfg.baseSeed));

  /** SkyRL's create_checkpoint: 404 for an unknown model, 409 for a name already taken. */
  const createCheckpoint = (modelId: string, kind: CheckpointKind, checkpointId: string): CheckpointRecord => {
    if (!state.models.has(modelId)) throw new HttpError(404, `Model '${modelId}' not found`);
    const key = state.checkpointKey(modelId, kind, checkpointId);
    const onDisk = cfg.checkpointDir !== undefined && existsSync(checkpointFile(cfg.checkpointDir, modelId, kind, checkpointId));
    if (state.checkpoints.has(key) || onDisk) throw new HttpError(409, `Checkpoint '${checkpointId}' already exists for model '${modelId}'`);
    const record: CheckpointRecord = { status: 'pending' };
    state.checkpoints.set(key, record);
    return record;
  };

  /** SkyRL's validate_checkpoint; a checkpoint file under checkpointDir counts, so a restarted server still finds it. */
  const validateCheckpoint = (modelId: string, kind: CheckpointKind, checkpointId: string): CheckpointRecord => {
    const notFound = new HttpError(404, `Checkpoint not found: ${modelId}/${checkpointId}`);
    if (!W.ID_PATTERN.test(modelId) || !W.ID_PATTERN.test(checkpointId)) throw notFound;
    let record = state.checkpoints.get(state.checkpointKey(modelId, kind, checkpointId));
    if (!record && cfg.checkpointDir !== undefined && existsSync(checkpointFile(cfg.checkpointDir, modelId, kind, checkpointId))) {
      record = { status: 'completed' };
      state.checkpoints.set(state.checkpointKey(modelId, kind, checkpointId), record);
    }
    if (!record) throw notFound;
    if (record.status === 'pending') throw new HttpError(425, 'Checkpoint is still being created');
    if (record.status === 'failed') throw new HttpError(500, `Checkpoint creation failed: ${record.error ?? 'unknown error'}`);
    return record;
  };

  /** Runs a checkpoint's work, recording its outcome on the checkpoint as SkyRL's _checkpoint_status_context does. */
  const tracked = async <T>(record: CheckpointRecord, work: () => Promise<T>): Promise<T> => {
    try {
      const out = await work();
      record.status = 'completed';
      return out;
    } catch (err) {
      record.status = 'failed';
      record.error = err instanceof Error ? err.message : String(err);
      throw err;
    }
  };

  const checkpointState = async (record: CheckpointRecord, modelId: string, kind: CheckpointKind, checkpointId: string) => {
    if (record.state !== undefined) return record.state;
    if (cfg.checkpointDir === undefined) throw new Error(`checkpoint ${modelId}/${checkpointId} has no saved state`);
    return readCheckpoint(checkpointFile(cfg.checkpointDir, modelId, kind, checkpointId));
  };

  return {
    healthz: get(() => ({ status: 'ok', dev_server: DEV_SERVER_NOTE })),
    get_server_capabilities: get(() => ({ supported_models: [{ model_name: cfg.baseModel }], dev_server: DEV_SERVER_NOTE })),
    'client/config': { method: 'POST', run: async () => ({ pjwt_auth_enabled: false }) },

    create_session: post(W.CreateSessionRequestSchema, (r) => {
      const id = newId('session');
      state.sessions.set(id, { id, tags: r.tags, lastHeartbeatMs: Date.now(), status: 'active' });
      return { type: 'create_session', info_message: DEV_SERVER_NOTE, session_id: id };
    }),

    // Like SkyRL, a heartbeat on an expired session is answered but does not bring its models back.
    session_heartbeat: post(W.SessionHeartbeatRequestSchema, (r) => {
      state.session(r.session_id).lastHeartbeatMs = Date.now();
      return { type: 'session_heartbeat' };
    }),

    create_sampling_session: post(W.CreateSamplingSessionRequestSchema, (r) => {
      state.session(r.session_id);
      if ((r.base_model == null) === (r.model_path == null)) throw new HttpError(400, 'Exactly one of base_model or model_path must be provided');
      const id = newId('sampling');
      state.samplingSessions.set(id, {
        id,
        sessionId: r.session_id,
        seq: r.sampling_session_seq_id,
        baseModel: r.base_model ?? undefined,
        modelPath: r.model_path ?? undefined,
      });
      return { type: 'create_sampling_session', sampling_session_id: id };
    }),

    create_model: post(W.CreateModelRequestSchema, (r) => {
      state.session(r.session_id);
      const id = newId('model');
      const seed = r.lora_config.seed ?? Math.floor(Math.random() * 2 ** 31);
      const lora = { rank: r.lora_config.rank, alpha: 32, seed, train_attn: true, train_mlp: true, train_unembed: false };
      const record = { id, sessionId: r.session_id, baseModel: r.base_model, lora, role: r.model_role, status: 'created' };
      state.models.set(id, record);
      const requestId = state.createFuture('create_model', id, { lora_config: lora, model_role: r.model_role }, undefined, () => {
        if (r.model_role !== 'policy') throw new Error(`the dev server only supports model_role='policy', got '${r.model_role}'`);
        if (!(lora.rank >= 1 && lora.rank <= cfg.maxLoraRank)) throw new Error(`LoRA rank ${lora.rank} must be between 1 and ${cfg.maxLoraRank}`);
        if (r.base_model !== cfg.baseModel) throw new Error(`the dev server serves base model '${cfg.baseModel}', not '${r.base_model}'`);
        state.model(id).model = cfg.makeModel(seed);
        return { model_id: id, base_model: cfg.baseModel, lora_config: lora };
      });
      return { model_id: id, base_model: r.base_model, lora_config: r.lora_config, status: 'created', request_id: String(requestId) };
    }),

    unload_model: post(W.UnloadModelRequestSchema, (r) => {
      const record = state.model(r.model_id);
      record.status = 'unloading';
      const requestId = state.createFuture('unload_model', r.model_id, {}, undefined, () => {
        record.model = undefined;
        record.status = 'unloaded';
        return { model_id: r.model_id, status: 'unloaded', type: 'unload_model' };
      });
      return { request_id: String(requestId), model_id: r.model_id };
    }),

    get_info: post(W.GetInfoRequestSchema, (r) => {
      const m = state.model(r.model_id);
      return { model_id: m.id, status: m.status, model_data: { base_model: m.baseModel, lora_config: { rank: m.lora.rank }, model_name: m.baseModel } };
    }),

    forward_backward: post(W.ForwardBackwardRequestSchema, (r) => {
      const record = state.model(r.model_id);
      const input = r.forward_backward_input;
      return futureResponse(state.createFuture('forward_backward', r.model_id, input, r.seq_id ?? undefined, () => runModelPass(loaded(record), input, true)));
    }),

    forward: post(W.ForwardRequestSchema, (r) => {
      const record = state.model(r.model_id);
      const input = r.forward_input;
      return futureResponse(state.createFuture('forward', r.model_id, input, r.seq_id ?? undefined, () => runModelPass(loaded(record), input, false)));
    }),

    optim_step: post(W.OptimStepRequestSchema, (r) => {
      const record = state.model(r.model_id);
      const adam = r.adam_params;
      return futureResponse(
        state.createFuture('optim_step', r.model_id, { adam_params: adam }, r.seq_id ?? undefined, () => ({ metrics: loaded(record).optimStep(adam) })),
      );
    }),

    save_weights: post(W.SaveWeightsRequestSchema, (r) => {
      const checkpoint = createCheckpoint(r.model_id, 'training', r.path);
      const record = state.model(r.model_id);
      const work = () =>
        tracked(checkpoint, async () => {
          const saved = loaded(record).save(true);
          if (cfg.checkpointDir !== undefined) {
            const meta = { model_id: r.model_id, checkpoint_id: r.path, base_model: record.baseModel, lora_rank: record.lora.rank };
            await writeCheckpoint(checkpointFile(cfg.checkpointDir, r.model_id, 'training', r.path), meta, saved);
          }
          checkpoint.state = saved;
          return { path: `tinker://${r.model_id}/weights/${r.path}`, type: 'save_weights' };
        });
      return futureResponse(state.createFuture('save_weights', r.model_id, { path: r.path }, undefined, work));
    }),

    save_weights_for_sampler: post(W.SaveWeightsForSamplerRequestSchema, (r) => {
      const record = state.model(r.model_id);
      const ephemeral = r.sampling_session_seq_id != null && r.seq_id != null;
      const checkpointId = r.path || `ss${r.sampling_session_seq_id}_seq${r.seq_id}`;
      const checkpoint = createCheckpoint(r.model_id, 'sampler', checkpointId);
      let samplingSessionId: string | undefined;
      if (ephemeral) {
        samplingSessionId = newId('sampling');
        const modelPath = `tinker://${r.model_id}/sampler_weights/${checkpointId}`;
        state.samplingSessions.set(samplingSessionId, { id: samplingSessionId, sessionId: record.sessionId, seq: r.sampling_session_seq_id ?? 0, modelPath });
      }
      const work = () =>
        tracked(checkpoint, async () => {
          const model = loaded(record);
          checkpoint.sampler = model.clone();
          // Like SkyRL, only a save with sampling ids is transient; a plain one is written out (when there is a directory).
          if (!ephemeral && cfg.checkpointDir !== undefined) {
            await writeCheckpoint(
              checkpointFile(cfg.checkpointDir, r.model_id, 'sampler', checkpointId),
              { model_id: r.model_id, checkpoint_id: checkpointId },
              model.save(false),
            );
          }
          return {
            path: ephemeral ? null : `tinker://${r.model_id}/${checkpointId}`,
            type: 'save_weights_for_sampler',
            sampling_session_id: samplingSessionId ?? null,
          };
        });
      const data = { path: checkpointId, sampling_session_seq_id: r.sampling_session_seq_id, seq_id: r.seq_id, sampling_session_id: samplingSessionId };
      return futureResponse(state.createFuture('save_weights_for_sampler', r.model_id, data, undefined, work));
    }),

    load_weights: post(W.LoadWeightsRequestSchema, (r) => {
      const record = state.model(r.model_id);
      const prior = state.priorRequests(r.model_id);
      if (prior > 0) throw new HttpError(400, `LoadWeights is not permitted with seq_id ${r.seq_id ?? prior + 1}`);
      const path = W.parseTinkerPath(r.path);
      if (!path || path.kind !== 'weights' || !path.primaryId || !path.secondaryId) {
        throw new HttpError(400, 'request.path must be in format tinker://source_model_id/weights/checkpoint_id');
      }
      const checkpoint = validateCheckpoint(path.primaryId, 'training', path.secondaryId);
      const data = { source_model_id: path.primaryId, checkpoint_id: path.secondaryId, load_optimizer: r.optimizer };
      const work = async () => {
        const model = loaded(record);
        model.load(await checkpointState(checkpoint, path.primaryId, 'training', path.secondaryId), r.optimizer);
        return { type: 'load_weights' };
      };
      return futureResponse(state.createFuture('load_weights', r.model_id, data, undefined, work));
    }),

    asample: post(W.SampleRequestSchema, (r) => {
      if (r.sampling_session_id?.includes(':')) throw new HttpError(400, "sampling_session_id must not contain ':' (the routing-key delimiter)");
      let baseModel = r.base_model ?? undefined;
      let modelPath = r.model_path ?? undefined;
      if (r.sampling_session_id != null) {
        const session = state.samplingSessions.get(r.sampling_session_id);
        if (!session) throw new HttpError(404, 'Sampling session not found');
        ({ baseModel, modelPath } = session);
      }
      let modelId = '';
      let sampler: () => Promise<DevModel> = async () => {
        if (baseModel !== cfg.baseModel) throw new Error(`Engine is configured for '${cfg.baseModel}' but request specified '${baseModel}'`);
        return base();
      };
      if (!baseModel) {
        const path = W.parseTinkerPath(modelPath ?? '');
        if (!path || (path.kind !== '' && path.kind !== 'sampler_weights') || !path.primaryId || !path.secondaryId) {
          throw new HttpError(400, 'model_path must be tinker://model_id/checkpoint_id or tinker://model_id/sampler_weights/checkpoint_id');
        }
        modelId = path.primaryId;
        const record = state.model(modelId);
        const checkpoint = validateCheckpoint(modelId, 'sampler', path.secondaryId);
        sampler = async () => {
          loaded(record);
          if (!checkpoint.sampler) {
            const restored = cfg.makeModel(cfg.baseSeed);
            restored.load(await checkpointState(checkpoint, modelId, 'sampler', path.secondaryId), false);
            checkpoint.sampler = restored.clone();
          }
          return checkpoint.sampler;
        };
      }
      const maxTokens = r.sampling_params.max_tokens;
      if (maxTokens == null) throw new HttpError(400, 'max_tokens is currently required');
      if (maxTokens <= 0) throw new HttpError(400, 'max_tokens must be a positive number');
      return futureResponse(state.createFuture('sample', modelId, r, undefined, async () => runSample(await sampler(), r, maxTokens)));
    }),

    retrieve_future: post(W.RetrieveFutureRequestSchema, async (r, gone) => {
      const future = /^\d+$/.test(r.request_id) ? state.futures.get(Number(r.request_id)) : undefined;
      if (!future) throw new HttpError(404, 'Future not found');
      const done = await state.waitFuture(future, cfg.futureWaitMs, gone);
      if (!done) throw new HttpError(408, 'Timeout waiting for result');
      if (done.status === 'failed') throw new HttpError(400, done.error ?? 'Unknown error');
      return done.result;
    }),
  };
}
