// A language model trained through the Tinker API: the second learner behind
// the RL contract. The engine (SkyRL's Tinker server, the hosted service or
// `frognano tinker-dev`) holds the weights and does forward_backward and
// optim_step; this side builds datums from token trajectories with the
// advantages the trainer computed, takes one optimizer step per training step,
// saves a resumable checkpoint and syncs the sampler, whose weights name
// tags every rollout.
import { writeTextAtomic } from '../util/atomic-json.js';
import { join } from 'node:path';
import type { Learner, Policy, PolicySnapshot, ScoredGroup, TokenTurn, UpdateResult } from '../rl/contract.js';
import type { Sampler } from '../sampler/types.js';
import type { TinkerClient } from '../tinker/client.js';
import { TinkerApiError } from '../tinker/http.js';
import type { ForwardBackwardResult } from '../tinker/wire.js';
import type { AdamParams, LossFn, LossFnConfig } from '../tinker/types.js';
import type { ChatCodec } from '../tokens/codec.js';
import { errorMessage } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { LmActor } from './actor.js';
import { groupDatums, tokenFigures } from './datums.js';

export interface TinkerLearnerOptions {
  client: TinkerClient;
  /** The base model as the server names it. */
  baseModel: string;
  codec: ChatCodec;
  loraRank: number;
  loss: LossFn;
  lossConfig?: LossFnConfig;
  adam: AdamParams;
  /** Sampled tokens per turn, and prompt plus sampled tokens per episode, at most. */
  maxTokens: number;
  contextTokens: number;
  temperature: number;
  maxStaleness: number;
  /** Names the run's checkpoints on the server. */
  runName: string;
  seed: number;
  /** Weights to start from (a `tinker://` path saved earlier, e.g. after supervised warm-up); the optimizer starts fresh. */
  initWeights?: string;
  /**
   * Set when queue workers act for this learner (src/queue): each version's sampler weights are then saved under a
   * name (a `tinker://` path any client samples from, not a session of this client's), and snapshots carry what a
   * worker needs to reach them. The API key stays behind: a worker reads it from the same variable.
   */
  workers?: { tinkerUrl: string; apiKeyEnv: string; tokenizer: string; thinking?: boolean };
  /** A sampler for the weights the server just saved for sampling (default: Tinker's own asample). */
  samplerFor: (saved: { path: string | null; samplingSessionId?: string }) => Promise<Sampler> | Sampler;
  log?: (line: string) => void;
}

/** What a resumed run needs: the last checkpoint (weights and optimizer) on the server and the version it is. */
export interface TinkerLearnerState {
  baseModel: string;
  loraRank: number;
  version: number;
  checkpoint?: string;
  samplerWeights?: string;
}

function isTinkerLearnerState(v: unknown): v is TinkerLearnerState {
  return isRecord(v) && typeof v.baseModel === 'string' && typeof v.loraRank === 'number' && typeof v.version === 'number';
}

/** A checkpoint name the server accepts (SkyRL: [A-Za-z0-9_-], at most 255 characters) from any run name. */
export function checkpointName(run: string, version: number): string {
  const suffix = `-v${version}`;
  return `${run.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 255 - suffix.length)}${suffix}`;
}

/** The step's summed loss under whatever name the engine reports it (hosted Tinker, SkyRL FSDP), else the sum of the per-token losses (SkyRL JAX). */
export function lossOf(fb: ForwardBackwardResult): number | undefined {
  const named = fb.metrics['loss:sum'] ?? fb.metrics['total_loss:sum'] ?? fb.metrics['pg_loss:sum'];
  if (named !== undefined) return named;
  const parts = fb.loss_fn_outputs.map((o) => o.elementwise_loss?.data);
  return parts.every((d) => d !== undefined) && parts.length ? parts.flat().reduce((a, b) => a + b, 0) : undefined;
}

export class TinkerLearner implements Learner<TokenTurn> {
  readonly kind = 'tinker';
  readonly maxStaleness: number;
  private version = 0;
  private checkpoint: string | undefined;
  private modelId: string | undefined;
  private sampler: Sampler | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly opts: TinkerLearnerOptions) {
    this.maxStaleness = opts.maxStaleness;
  }

  /** Session, model (from the checkpoint of a resumed run, else from initWeights or the base) and a first sampler. Once. */
  private ready(): Promise<void> {
    this.starting ??= (async () => {
      const { client, baseModel, loraRank, seed } = this.opts;
      await client.createSession(['frognano', this.opts.runName]);
      this.modelId = await client.createModel({ baseModel, loraRank, seed });
      const from = this.checkpoint ?? this.opts.initWeights;
      if (from) {
        try {
          await client.loadWeights(this.modelId, from, this.checkpoint !== undefined);
        } catch (err) {
          // SkyRL allows load_weights only as a model's first request, so a retried load is refused: load once more into a fresh model.
          this.opts.log?.(`loading ${from} failed (${errorMessage(err)}); once more into a fresh model`);
          this.modelId = await client.createModel({ baseModel, loraRank, seed });
          await client.loadWeights(this.modelId, from, this.checkpoint !== undefined);
        }
        this.opts.log?.(`loaded ${from}${this.checkpoint ? ' (weights and optimizer)' : ''}`);
      }
      await this.syncSampler();
    })();
    return this.starting;
  }

  /** save_weights under a name no earlier step used: a 409 can only mean a retry whose first attempt saved it (SkyRL does not de-duplicate saves). */
  private async saveCheckpoint(name: string): Promise<string> {
    try {
      return await this.opts.client.saveWeights(this.modelId!, name);
    } catch (err) {
      if (!(err instanceof TinkerApiError) || err.status !== 409) throw err;
      this.opts.log?.(`${err.message}; taking the checkpoint the first attempt saved`);
      return `tinker://${this.modelId!}/weights/${name}`;
    }
  }

  private async syncSampler(): Promise<void> {
    const name = this.opts.workers ? `${checkpointName(this.opts.runName, this.version)}-sampler` : undefined;
    const saved = await this.opts.client.saveWeightsForSampler(this.modelId!, name);
    this.samplerPath = saved.path ?? undefined;
    this.sampler = await this.opts.samplerFor(saved);
  }

  private samplerPath: string | undefined;

  /** The current version for queue workers: its named sampler weights and how to act with them. */
  async snapshot(): Promise<PolicySnapshot> {
    const w = this.opts.workers;
    if (!w) throw new Error('this Tinker learner was not made for queue workers');
    await this.ready();
    if (!this.samplerPath) throw new Error('the server gave no path for the sampler weights: queue workers cannot reach them');
    const { baseModel, maxTokens, contextTokens, temperature } = this.opts;
    return { learner: this.kind, version: this.version, data: { ...w, modelPath: this.samplerPath, baseModel, maxTokens, contextTokens, temperature } };
  }

  policy(): Policy<TokenTurn> {
    const version = this.version;
    return {
      version,
      actor: async ({ seed, greedy }) => {
        await this.ready();
        // The sampler serves the newest weights only: an actor for an older version would act with the wrong ones.
        if (this.version !== version) throw new Error(`policy version ${version} is no longer served (the learner holds ${this.version})`);
        const { codec, maxTokens, contextTokens, temperature } = this.opts;
        return new LmActor({
          codec,
          sampler: this.sampler!,
          maxTokens,
          contextTokens,
          temperature: greedy ? 0 : temperature,
          seed,
          name: `${this.opts.baseModel}@v${version}`,
        });
      },
    };
  }

  // The advantages come computed in the groups (the trainer ran the estimator); the engine only needs them per token.
  async update(groups: ScoredGroup<TokenTurn>[]): Promise<UpdateResult> {
    await this.ready();
    const { client, loss, lossConfig, adam } = this.opts;
    const datums = groupDatums(groups);
    const figures = { ...tokenFigures(groups), datums: datums.length };
    if (datums.length === 0) return { version: this.version, gradNorm: 0, metrics: figures };
    const fb = await client.forwardBackward(this.modelId!, datums, loss, lossConfig);
    const step = await client.optimStep(this.modelId!, adam);
    this.version += 1;
    this.checkpoint = await this.saveCheckpoint(checkpointName(this.opts.runName, this.version));
    await this.syncSampler();
    const loss0 = lossOf(fb);
    // SkyRL names it skyrl.ai/grad_norm; other engines grad_norm or grad_norm:mean.
    const gradNorm = Object.entries(step.metrics ?? {}).find(([k]) => /(^|\/)grad_norm(:mean)?$/.test(k))?.[1];
    return {
      version: this.version,
      gradNorm: typeof gradNorm === 'number' ? gradNorm : 0,
      metrics: { ...figures, ...(loss0 !== undefined ? { loss: loss0 } : {}) },
    };
  }

  save(): TinkerLearnerState {
    return {
      baseModel: this.opts.baseModel,
      loraRank: this.opts.loraRank,
      version: this.version,
      ...(this.checkpoint ? { checkpoint: this.checkpoint } : {}),
      ...(this.sampler ? { samplerWeights: this.sampler.weights } : {}),
    };
  }

  restore(state: unknown): void {
    if (!isTinkerLearnerState(state)) throw new Error('the saved learner state is not a Tinker learner state');
    if (state.baseModel !== this.opts.baseModel || state.loraRank !== this.opts.loraRank) {
      throw new Error(`the run trained ${state.baseModel} with LoRA rank ${state.loraRank}, not ${this.opts.baseModel} with rank ${this.opts.loraRank}`);
    }
    if (this.starting) throw new Error('restore must come before the learner starts');
    this.version = state.version;
    this.checkpoint = state.checkpoint;
  }

  /** Where the trained weights are: the server's checkpoint path, and what to do with it (docs/language-models.md). */
  exportTo(runDir: string): void {
    const out = { ...this.save(), how: 'download the checkpoint from the Tinker server and merge the LoRA: docs/language-models.md' };
    writeTextAtomic(join(runDir, 'lm-checkpoint.json'), `${JSON.stringify(out, null, 2)}\n`);
  }

  close(): void {
    this.opts.client.close();
  }
}
