// Shared pieces of the Tinker protocol tests: a dev server over the real tiny
// model, a model wrapper that counts the work done (to see a retried request
// run once), datums, and a raw JSON POST for shapes the client never sends.
import type { DevModel, DevSampleParams } from '../../src/tinker-dev/backend.js';
import { startTinkerDevServer, type TinkerDevServer, type TinkerDevServerOptions } from '../../src/tinker-dev/server.js';
import { TinyModel } from '../../src/tinker-dev/tiny-model.js';
import type { AdamParams, Datum, LossFn, LossFnConfig } from '../../src/tinker/types.js';

export const VOCAB = 24;
export const BASE = 'dev/tiny-24';
export const ADAM: AdamParams = { learning_rate: 0.2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weight_decay: 0 };

/** Work the server's models did, across all of them. */
export interface WorkCounts {
  forwardBackward: number;
  forward: number;
  optimStep: number;
}

export class CountingModel implements DevModel {
  constructor(
    private readonly inner: DevModel,
    private readonly counts: WorkCounts,
  ) {}
  get vocabSize() {
    return this.inner.vocabSize;
  }
  forwardBackward(data: Datum[], lossFn: LossFn, config: LossFnConfig | undefined, backward: boolean) {
    if (backward) this.counts.forwardBackward++;
    else this.counts.forward++;
    return this.inner.forwardBackward(data, lossFn, config, backward);
  }
  optimStep(adam: AdamParams) {
    this.counts.optimStep++;
    return this.inner.optimStep(adam);
  }
  sample(prompt: number[], n: number, params: DevSampleParams) {
    return this.inner.sample(prompt, n, params);
  }
  save(withOptimizer: boolean) {
    return this.inner.save(withOptimizer);
  }
  load(state: unknown, withOptimizer: boolean) {
    this.inner.load(state, withOptimizer);
  }
  clone(): DevModel {
    return new CountingModel(this.inner.clone(), this.counts);
  }
}

export interface DevFixture {
  server: TinkerDevServer;
  url: string;
  counts: WorkCounts;
  logs: string[];
  close(): Promise<void>;
}

export async function startDev(opts: Partial<TinkerDevServerOptions> = {}): Promise<DevFixture> {
  const counts: WorkCounts = { forwardBackward: 0, forward: 0, optimStep: 0 };
  const logs: string[] = [];
  const server = await startTinkerDevServer({
    baseModel: BASE,
    makeModel: (seed) => new CountingModel(new TinyModel({ vocabSize: VOCAB, specialIds: [0], seed }), counts),
    log: (m) => logs.push(m),
    ...opts,
  });
  return { server, url: server.url, counts, logs, close: () => server.close() };
}

/** A datum that teaches `tokens[i] -> tokens[i+1]`. */
export function datum(tokens: number[]): Datum {
  return {
    model_input: { chunks: [{ type: 'encoded_text', tokens: tokens.slice(0, -1) }] },
    loss_fn_inputs: { target_tokens: { data: tokens.slice(1) } },
  };
}

export async function post(
  url: string,
  endpoint: string,
  body: unknown,
  raw = false,
): Promise<{ status: number; body: { detail?: unknown } & Record<string, unknown> }> {
  const res = await fetch(`${url}/api/v1/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ? String(body) : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { detail?: unknown } & Record<string, unknown> };
}

export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
