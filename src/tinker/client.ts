// A client for the Tinker HTTP API as SkyRL's server speaks it (JSON bodies,
// `X-API-Key` header as the official SDK sends it). It keeps the session alive
// with heartbeats, numbers each model's requests with a monotonic seq_id that
// a retry re-sends unchanged (SkyRL de-duplicates on (model_id, seq_id)), and
// sends each model's requests in call order even when the caller does not await.
import type { z } from 'zod';
import { errorMessage } from '../util/errors.js';
import { TinkerFuture } from './futures.js';
import { TinkerApiError, TinkerHttp } from './http.js';
import { RequestOrder, Repeater } from './ordering.js';
import type { AdamParams, Datum, LossFn, LossFnConfig, ModelInput, SampleOutput, SamplingParams } from './types.js';
import * as W from './wire.js';

export interface TinkerClientOptions {
  baseUrl: string;
  apiKey?: string;
  /** Per HTTP request; a long poll of retrieve_future that outlasts it is simply asked again. */
  timeoutMs?: number;
  /** Retries of one request after network errors, 429 and 5xx. */
  retries?: number;
  backoffMs?: number;
  /** Well inside SkyRL's 300 s session timeout. */
  heartbeatMs?: number;
  /** How long to wait for one future's result. */
  futureTimeoutMs?: number;
  /** Sent as create_session's sdk_version (SkyRL only records it). */
  sdkVersion?: string;
  log?: (message: string) => void;
}

export interface SampleArgs {
  prompt: number[] | ModelInput;
  samplingParams: SamplingParams;
  numSamples?: number;
  /** Exactly one source: a sampling session, a base model, or a sampler checkpoint path. */
  samplingSessionId?: string;
  baseModel?: string;
  modelPath?: string;
  promptLogprobs?: boolean;
  topkPromptLogprobs?: number;
}

export type ModelPassInput = z.input<typeof W.ForwardBackwardInputSchema>;

export class TinkerClient {
  private readonly http: TinkerHttp;
  private readonly log: (message: string) => void;
  private readonly heartbeatMs: number;
  private readonly futureTimeoutMs: number;
  private readonly sdkVersion: string;
  private session?: string;
  private heartbeats?: Repeater;
  /** seq_ids and send order per model. */
  private readonly models = new RequestOrder();
  /** seq_ids per sampling session (asample is not de-duplicated; SkyRL uses them for routing). */
  private readonly samplers = new RequestOrder();
  private samplingSessionSeq = 0;

  constructor(opts: TinkerClientOptions) {
    this.log = opts.log ?? (() => {});
    this.heartbeatMs = opts.heartbeatMs ?? 60_000;
    this.futureTimeoutMs = opts.futureTimeoutMs ?? 3_600_000;
    this.sdkVersion = opts.sdkVersion ?? 'frognano-tinker-ts/0.1';
    this.http = new TinkerHttp({
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      timeoutMs: opts.timeoutMs ?? 60_000,
      retries: opts.retries ?? 5,
      backoffMs: opts.backoffMs ?? 250,
      log: this.log,
    });
  }

  get sessionId(): string | undefined {
    return this.session;
  }

  healthz() {
    return this.http.call('GET', 'healthz', undefined, W.HealthResponseSchema);
  }

  capabilities() {
    return this.http.call('GET', 'get_server_capabilities', undefined, W.GetServerCapabilitiesResponseSchema);
  }

  /** Opens a session and starts its heartbeat (an unref'd timer: it does not keep the process alive). */
  async createSession(tags: string[], userMetadata?: Record<string, unknown>): Promise<string> {
    const body: z.input<typeof W.CreateSessionRequestSchema> = { tags, user_metadata: userMetadata, sdk_version: this.sdkVersion };
    const res = await this.http.call('POST', 'create_session', body, W.CreateSessionResponseSchema);
    for (const note of [res.info_message, res.warning_message, res.error_message]) if (note) this.log(`tinker create_session: ${note}`);
    this.session = res.session_id;
    this.heartbeats?.stop();
    this.heartbeats = new Repeater(
      () => this.heartbeat(),
      this.heartbeatMs,
      (err) => this.log(`tinker heartbeat failed (the server unloads a silent session's models): ${errorMessage(err)}`),
    );
    return res.session_id;
  }

  async heartbeat(): Promise<void> {
    const body: z.input<typeof W.SessionHeartbeatRequestSchema> = { session_id: this.requireSession('session_heartbeat') };
    await this.http.call('POST', 'session_heartbeat', body, W.SessionHeartbeatResponseSchema);
  }

  /** Stops the heartbeat; the server unloads the session's models once its timeout passes. */
  close(): void {
    this.heartbeats?.stop();
    this.heartbeats = undefined;
  }

  /** Creates a LoRA model and waits until the server has built it. */
  async createModel(o: { baseModel: string; loraRank: number; seed?: number; modelRole?: string }): Promise<string> {
    const body: z.input<typeof W.CreateModelRequestSchema> = {
      session_id: this.requireSession('create_model'),
      base_model: o.baseModel,
      lora_config: { rank: o.loraRank, seed: o.seed },
      model_role: o.modelRole,
    };
    const res = await this.http.call('POST', 'create_model', body, W.CreateModelResponseSchema);
    await this.future('create_model', res.request_id, W.CreateModelOutputSchema).result();
    return res.model_id;
  }

  getInfo(modelId: string) {
    return this.http.call('POST', 'get_info', { model_id: modelId }, W.ModelInfoResponseSchema);
  }

  /** Sends forward_backward (in order after the model's earlier requests) and returns its future. */
  submitForwardBackward(modelId: string, data: Datum[], lossFn: LossFn, lossFnConfig?: LossFnConfig) {
    return this.submitPass(modelId, 'forward_backward', { data, loss_fn: lossFn, loss_fn_config: lossFnConfig });
  }

  async forwardBackward(modelId: string, data: Datum[], lossFn: LossFn, lossFnConfig?: LossFnConfig) {
    return (await this.submitForwardBackward(modelId, data, lossFn, lossFnConfig)).result();
  }

  /** forward: the same input as forward_backward, no gradients kept. */
  submitForward(modelId: string, data: Datum[], lossFn: LossFn, lossFnConfig?: LossFnConfig) {
    return this.submitPass(modelId, 'forward', { data, loss_fn: lossFn, loss_fn_config: lossFnConfig });
  }

  async forward(modelId: string, data: Datum[], lossFn: LossFn, lossFnConfig?: LossFnConfig) {
    return (await this.submitForward(modelId, data, lossFn, lossFnConfig)).result();
  }

  private submitPass(modelId: string, endpoint: 'forward' | 'forward_backward', input: ModelPassInput) {
    return this.submit(
      modelId,
      endpoint,
      (seq_id) =>
        endpoint === 'forward'
          ? ({ model_id: modelId, forward_input: input, seq_id } satisfies z.input<typeof W.ForwardRequestSchema>)
          : ({ model_id: modelId, forward_backward_input: input, seq_id } satisfies z.input<typeof W.ForwardBackwardRequestSchema>),
      W.ForwardBackwardOutputSchema,
    );
  }

  submitOptimStep(modelId: string, adam: AdamParams) {
    return this.submit(
      modelId,
      'optim_step',
      (seq_id) => ({ model_id: modelId, adam_params: adam, seq_id }) satisfies z.input<typeof W.OptimStepRequestSchema>,
      W.OptimStepOutputSchema,
    );
  }

  async optimStep(modelId: string, adam: AdamParams) {
    return (await this.submitOptimStep(modelId, adam)).result();
  }

  /**
   * Weights for sampling. With a name the checkpoint is kept (`tinker://<model>/<name>`); without one it is
   * ephemeral and comes with a sampling session pinned to it (path null, as SkyRL answers).
   */
  async saveWeightsForSampler(modelId: string, name?: string): Promise<{ path: string | null; samplingSessionId?: string }> {
    const send = () =>
      this.submit(
        modelId,
        'save_weights_for_sampler',
        (seq_id) =>
          (name ? { model_id: modelId, path: name } : { model_id: modelId, sampling_session_seq_id: this.samplingSessionSeq++, seq_id }) satisfies z.input<
            typeof W.SaveWeightsForSamplerRequestSchema
          >,
        W.SaveWeightsForSamplerOutputSchema,
      );
    let future;
    try {
      future = await send();
    } catch (err) {
      // SkyRL does not de-duplicate this call: a retry after a lost answer finds its own checkpoint (409).
      // An ephemeral save only syncs the current weights, so it is safe to send again under fresh ids.
      if (name || !(err instanceof TinkerApiError) || err.status !== 409) throw err;
      this.log(`${err.message}; sending the ephemeral save again under fresh ids`);
      future = await send();
    }
    const out = await future.result();
    return { path: out.path ?? null, samplingSessionId: out.sampling_session_id ?? undefined };
  }

  /** Saves weights and optimizer state under `name`; returns the `tinker://<model>/weights/<name>` path. */
  async saveWeights(modelId: string, name: string): Promise<string> {
    const future = await this.submit(
      modelId,
      'save_weights',
      () => ({ model_id: modelId, path: name }) satisfies z.input<typeof W.SaveWeightsRequestSchema>,
      W.SaveWeightsOutputSchema,
    );
    return (await future.result()).path;
  }

  /** Loads a `tinker://…/weights/…` checkpoint; SkyRL allows it only as a fresh model's first request. */
  async loadWeights(modelId: string, path: string, optimizer: boolean): Promise<void> {
    const future = await this.submit(
      modelId,
      'load_weights',
      (seq_id) => ({ model_id: modelId, path, optimizer, seq_id }) satisfies z.input<typeof W.LoadWeightsRequestSchema>,
      W.LoadWeightsOutputSchema,
    );
    await future.result();
  }

  async unloadModel(modelId: string): Promise<void> {
    const res = await this.models.inOrder(modelId, () => this.http.call('POST', 'unload_model', { model_id: modelId }, W.UnloadModelResponseSchema));
    await this.future('unload_model', res.request_id, W.UnloadModelOutputSchema).result();
  }

  async createSamplingSession(o: { baseModel?: string; modelPath?: string }): Promise<string> {
    const body: z.input<typeof W.CreateSamplingSessionRequestSchema> = {
      session_id: this.requireSession('create_sampling_session'),
      sampling_session_seq_id: this.samplingSessionSeq++,
      base_model: o.baseModel,
      model_path: o.modelPath,
    };
    return (await this.http.call('POST', 'create_sampling_session', body, W.CreateSamplingSessionResponseSchema)).sampling_session_id;
  }

  /** Samples token ids with their logprobs. Not de-duplicated by SkyRL: a retry may sample twice, harmlessly. */
  async asample(a: SampleArgs): Promise<SampleOutput> {
    const prompt = Array.isArray(a.prompt) ? { chunks: [{ type: 'encoded_text' as const, tokens: a.prompt }] } : a.prompt;
    const session = a.samplingSessionId;
    const seq = session === undefined ? undefined : this.samplers.nextSeqId(session);
    const body: z.input<typeof W.SampleRequestSchema> = {
      prompt,
      num_samples: a.numSamples,
      sampling_params: a.samplingParams,
      sampling_session_id: session,
      seq_id: seq,
      base_model: a.baseModel,
      model_path: a.modelPath,
      prompt_logprobs: a.promptLogprobs,
      topk_prompt_logprobs: a.topkPromptLogprobs,
    };
    const res = await this.http.call('POST', 'asample', body, W.FutureResponseSchema);
    return this.future('asample', res.request_id, W.SampleOutputSchema).result();
  }

  private requireSession(endpoint: string): string {
    if (!this.session) throw new TinkerApiError(`tinker ${endpoint}: no session yet; call createSession first`, endpoint, 'status');
    return this.session;
  }

  private future<T>(endpoint: string, requestId: string, schema: z.ZodType<T>): TinkerFuture<T> {
    return new TinkerFuture(this.http, endpoint, requestId, schema, this.futureTimeoutMs);
  }

  /** A model request with the next seq_id, fixed before the first attempt so every retry carries the same body. */
  private async submit<T>(modelId: string, endpoint: string, body: (seqId: number) => object, schema: z.ZodType<T>): Promise<TinkerFuture<T>> {
    const payload = body(this.models.nextSeqId(modelId));
    const res = await this.models.inOrder(modelId, () => this.http.call('POST', endpoint, payload, W.FutureResponseSchema));
    return this.future(endpoint, res.request_id, schema);
  }
}
