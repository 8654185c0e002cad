// Who acts in a worker's rollouts, from a job's actor spec: a published policy
// version (checked to be the version the job names: a worker never acts with
// another), or a model made from evaluation's flags by the command line's own
// factory. Kept per spec, so a policy's weights are parsed once per version.
import type { BuiltEnv } from '../env/build.js';
import type { Model } from '../model/types.js';
import { EmbeddedAgent } from '../policy/agent.js';
import { EMBEDDED_KIND } from '../policy/learner.js';
import { LinearPolicy } from '../policy/linear.js';
import type { Task } from '../task/task.js';
import { isRecord } from '../util/guards.js';
import { errorMessage } from '../util/errors.js';
import { z } from 'zod';
import { LmActor } from '../lm/actor.js';
import { TinkerSampler } from '../sampler/tinker.js';
import { TinkerClient } from '../tinker/client.js';
import { ChatCodec } from '../tokens/codec.js';
import type { Artifacts } from './artifacts.js';
import type { ActorSpec } from './jobs.js';

/** Makes one episode's model. */
export interface ActorSource {
  forEpisode(ep: { seed: number; task: Task; built: BuiltEnv }): Promise<Model>;
  close(): Promise<void>;
}

/** The command line's model factory (cli/models.ts), handed down so this layer does not import the command line. */
export type ModelsFromFlags = (flags: Record<string, string | boolean>) => Promise<ActorSource>;

/** A job's actor could not be made as asked: the job fails without retries. */
export class ActorRefused extends Error {}

/** What a language-model learner's snapshot carries (lm/learner.ts `snapshot`). */
const LmSnapshotSchema = z.object({
  tinkerUrl: z.string(),
  apiKeyEnv: z.string(),
  tokenizer: z.string(),
  thinking: z.boolean().optional(),
  modelPath: z.string(),
  baseModel: z.string(),
  maxTokens: z.number().int().positive(),
  contextTokens: z.number().int().positive(),
  temperature: z.number(),
});

/** Policies a worker can act for, by learner kind: what a snapshot carries, made into an actor. */
const POLICY_KINDS: Record<string, (data: unknown, version: number) => ActorSource> = {
  [EMBEDDED_KIND]: (data) => {
    const weights = LinearPolicy.fromJSON(data);
    return { forEpisode: async ({ seed }) => new EmbeddedAgent(weights, { seed }), close: async () => {} };
  },
  // A language model: sampled from the version's named sampler weights on the learner's engine, with this worker's tokenizer copy.
  tinker: (data, version) => {
    const lm = LmSnapshotSchema.parse(data);
    const apiKey = process.env[lm.apiKeyEnv];
    const client = new TinkerClient({ baseUrl: lm.tinkerUrl, ...(apiKey ? { apiKey } : {}) });
    let codec: ChatCodec;
    try {
      codec = ChatCodec.load(lm.tokenizer, lm.thinking !== undefined ? { thinking: lm.thinking } : {});
    } catch (err) {
      throw new ActorRefused(`this worker cannot load the tokenizer at ${lm.tokenizer}: ${errorMessage(err)}`);
    }
    const sampler = new TinkerSampler(client, { modelPath: lm.modelPath });
    const { maxTokens, contextTokens, temperature } = lm;
    return {
      forEpisode: async ({ seed }) => new LmActor({ codec, sampler, maxTokens, contextTokens, temperature, seed, name: `${lm.baseModel}@v${version}` }),
      close: async () => client.close(),
    };
  },
};

export class Actors {
  private readonly made = new Map<string, Promise<ActorSource>>();

  constructor(
    private readonly artifacts: Artifacts,
    private readonly fromFlags?: ModelsFromFlags,
  ) {}

  for(spec: ActorSpec): Promise<ActorSource> {
    // The version and learner belong to the key: a job naming another version than its snapshot holds must reach the check.
    const key = spec.kind === 'policy' ? `policy:${spec.snapshot}:${spec.learner}:${spec.version}` : `flags:${JSON.stringify(spec.flags)}`;
    let got = this.made.get(key);
    if (!got) {
      got = this.make(spec);
      this.made.set(key, got);
      got.catch(() => this.made.delete(key));
      // Versions move on: keep the last few.
      if (this.made.size > 8) this.dropOldest();
    }
    return got;
  }

  private dropOldest(): void {
    const [key, oldest] = this.made.entries().next().value!;
    this.made.delete(key);
    void oldest.then((a) => a.close()).catch(() => {});
  }

  private async make(spec: ActorSpec): Promise<ActorSource> {
    if (spec.kind === 'flags') {
      if (!this.fromFlags) throw new ActorRefused('this worker makes no models from flags');
      return this.fromFlags(spec.flags);
    }
    const snap: unknown = JSON.parse(await this.artifacts.fetch(spec.snapshot));
    if (!isRecord(snap) || typeof snap.learner !== 'string' || typeof snap.version !== 'number')
      throw new ActorRefused(`${spec.snapshot} is not a policy snapshot`);
    if (snap.learner !== spec.learner || snap.version !== spec.version) {
      throw new ActorRefused(`the job asks for ${spec.learner} version ${spec.version}, but its snapshot holds ${snap.learner} version ${snap.version}`);
    }
    const make = POLICY_KINDS[snap.learner];
    if (!make) throw new ActorRefused(`this worker cannot act for ${snap.learner} policies (it knows ${Object.keys(POLICY_KINDS).join(', ')})`);
    return make(snap.data, snap.version);
  }

  async close(): Promise<void> {
    const all = [...this.made.values()];
    this.made.clear();
    await Promise.all(all.map((p) => p.then((a) => a.close()).catch(() => {})));
  }
}
