// Runtime schemas of the Tinker HTTP API bodies, field by field as SkyRL's
// pydantic models define them (skyrl/tinker/api.py request/response models,
// skyrl/tinker/types.py future results). The client checks responses with them,
// the dev server checks requests. Like pydantic's default, unknown fields are
// dropped (zod objects strip them); `X | None = None` fields are `.nullish()`.
import { z } from 'zod';
import { isRecord } from '../util/guards.js';
import { LOSS_FNS } from './types.js';

/** Checkpoint names and ids: SkyRL's ID_PATTERN / ID_MAX_LENGTH. */
export const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
export const ID_MAX_LENGTH = 255;

const int = () => z.number().int();
const checkpointName = () => z.string().max(ID_MAX_LENGTH).regex(ID_PATTERN);

// dtype and shape are not in SkyRL's request TensorData (ignored there); kept when valid, dropped when not.
export const TensorDataSchema = z.object({
  data: z.array(z.number()),
  dtype: z.enum(['int64', 'float32']).optional().catch(undefined),
  shape: z.array(int()).optional().catch(undefined),
});

const EncodedTextChunkSchema = z.object({ type: z.literal('encoded_text').default('encoded_text'), tokens: z.array(int()) });
const ImageChunkSchema = z.object({
  type: z.literal('image').default('image'),
  data: z.base64(),
  format: z.enum(['png', 'jpeg']),
  expected_tokens: int().nullish(),
});
const ImageAssetPointerChunkSchema = z.object({
  type: z.literal('image_asset_pointer').default('image_asset_pointer'),
  format: z.enum(['png', 'jpeg']),
  location: z.string().min(1),
  expected_tokens: int().nullish(),
});

/** A chunk without `type` is told by its fields, as SkyRL's _get_model_chunk_type does. */
function withChunkType(v: unknown): unknown {
  if (!isRecord(v) || 'type' in v) return v;
  const kinds = [['tokens', 'encoded_text'] as const, ['location', 'image_asset_pointer'] as const, ['data', 'image'] as const].filter(([k]) => k in v);
  return kinds.length === 1 ? { ...v, type: kinds[0][1] } : v;
}

export const ModelInputSchema = z.object({
  chunks: z.array(z.preprocess(withChunkType, z.discriminatedUnion('type', [EncodedTextChunkSchema, ImageChunkSchema, ImageAssetPointerChunkSchema]))),
});

export const DatumSchema = z.object({
  loss_fn_inputs: z.record(z.string(), TensorDataSchema).refine((inputs) => 'target_tokens' in inputs, {
    // SkyRL's schema lets this through and then fails with a KeyError (HTTP 500); refusing it up front is kinder.
    message: "loss_fn_inputs must contain 'target_tokens'",
  }),
  model_input: ModelInputSchema,
});

/** Which loss_fn_config keys each loss accepts (ForwardBackwardInput._ALLOWED_KEYS_BY_LOSS_FN). */
export const LOSS_FN_CONFIG_KEYS: Readonly<Record<(typeof LOSS_FNS)[number], readonly string[]>> = {
  cross_entropy: [],
  importance_sampling: [],
  ppo: ['clip_low_threshold', 'clip_high_threshold', 'value_clip'],
  gspo: ['clip_low_threshold', 'clip_high_threshold'],
  cispo: ['clip_low_threshold', 'clip_high_threshold'],
  ppo_critic: ['value_clip'],
  dppo: ['delta_low', 'delta_high'],
};

export const ForwardBackwardInputSchema = z
  .object({ data: z.array(DatumSchema), loss_fn: z.enum(LOSS_FNS), loss_fn_config: z.record(z.string(), z.number()).nullish() })
  .superRefine((input, ctx) => {
    if (!input.loss_fn_config) return;
    const allowed = LOSS_FN_CONFIG_KEYS[input.loss_fn];
    const invalid = Object.keys(input.loss_fn_config)
      .filter((k) => !allowed.includes(k))
      .sort();
    if (invalid.length === 0) return;
    const message = allowed.length
      ? `Invalid loss_fn_config keys for loss_fn='${input.loss_fn}': ${invalid.join(', ')}. Allowed keys: ${[...allowed].sort().join(', ')}.`
      : `loss_fn='${input.loss_fn}' does not accept loss_fn_config keys. Received: ${invalid.join(', ')}.`;
    ctx.addIssue({ code: 'custom', message, path: ['loss_fn_config'] });
  });

export const ForwardBackwardRequestSchema = z.object({ model_id: z.string(), forward_backward_input: ForwardBackwardInputSchema, seq_id: int().nullish() });
export const ForwardRequestSchema = z.object({ model_id: z.string(), forward_input: ForwardBackwardInputSchema, seq_id: int().nullish() });

export const AdamParamsSchema = z.object({
  learning_rate: z.number().min(0).default(1e-4),
  beta1: z.number().min(0).lt(1).default(0.9),
  beta2: z.number().min(0).lt(1).default(0.95),
  eps: z.number().gt(0).default(1e-12),
  weight_decay: z.number().min(0).default(0),
});
export const OptimStepRequestSchema = z.object({ model_id: z.string(), adam_params: AdamParamsSchema, seq_id: int().nullish() });

export const LoraConfigSchema = z.object({ rank: int(), seed: int().nullish() });

export const CreateSessionRequestSchema = z.object({
  tags: z.array(z.string()),
  user_metadata: z.record(z.string(), z.unknown()).nullish(),
  sdk_version: z.string(),
  type: z.literal('create_session').default('create_session'),
});
export const SessionHeartbeatRequestSchema = z.object({ session_id: z.string(), type: z.literal('session_heartbeat').default('session_heartbeat') });
export const CreateModelRequestSchema = z.object({
  session_id: z.string(),
  base_model: z.string(),
  lora_config: LoraConfigSchema,
  model_role: z.string().default('policy'),
});
export const UnloadModelRequestSchema = z.object({ model_id: z.string(), type: z.string().nullish() });
export const GetInfoRequestSchema = z.object({ model_id: z.string(), type: z.string().nullish() });
export const RetrieveFutureRequestSchema = z.object({ request_id: z.string() });

export const SaveWeightsForSamplerRequestSchema = z
  .object({
    model_id: z.string(),
    path: checkpointName().nullish(),
    sampling_session_seq_id: int().nullish(),
    seq_id: int().nullish(),
    type: z.literal('save_weights_for_sampler').default('save_weights_for_sampler'),
  })
  .refine((r) => r.path || (r.sampling_session_seq_id != null && r.seq_id != null), {
    message: "Either 'path' or both 'sampling_session_seq_id' and 'seq_id' must be provided",
  });
export const SaveWeightsRequestSchema = z.object({ model_id: z.string(), path: checkpointName(), type: z.literal('save_weights').nullish() });
export const LoadWeightsRequestSchema = z.object({
  model_id: z.string(),
  path: z.string(),
  optimizer: z.boolean().default(true),
  seq_id: int().nullish(),
  type: z.literal('load_weights').nullish(),
});

export const CreateSamplingSessionRequestSchema = z.object({
  session_id: z.string(),
  sampling_session_seq_id: int(),
  base_model: z.string().nullish(),
  model_path: z.string().nullish(),
  type: z.literal('create_sampling_session').default('create_sampling_session'),
});

// max_tokens is optional in the schema; SkyRL answers 400 "max_tokens is currently required" when it is missing.
export const SamplingParamsSchema = z.object({
  max_tokens: int().nullish(),
  seed: int().nullish(),
  stop: z.union([z.array(int()), z.array(z.string())]).nullish(),
  temperature: z.number().default(1),
  top_k: int().default(-1),
  top_p: z.number().default(1),
});

export const SampleRequestSchema = z
  .object({
    num_samples: int().default(1),
    prompt: ModelInputSchema,
    sampling_params: SamplingParamsSchema,
    base_model: z.string().nullish(),
    model_path: z.string().nullish(),
    sampling_session_id: z.string().nullish(),
    seq_id: int().nullish(),
    prompt_logprobs: z.boolean().nullish(),
    topk_prompt_logprobs: int().min(0).default(0),
    type: z.literal('sample').default('sample'),
  })
  .superRefine((r, ctx) => {
    if (r.sampling_session_id != null) {
      if (r.seq_id == null) ctx.addIssue({ code: 'custom', message: "'seq_id' must be provided when 'sampling_session_id' is used" });
    } else if ((r.base_model == null) === (r.model_path == null)) {
      ctx.addIssue({ code: 'custom', message: "When 'sampling_session_id' is not provided, exactly one of 'base_model' or 'model_path' must be provided" });
    }
  });

// ---- Responses (this server's extension: `dev_server`, a note that SkyRL's own answers lack) ----

const devServerNote = z.string().optional();
export const HealthResponseSchema = z.object({ status: z.literal('ok'), dev_server: devServerNote });
export const GetServerCapabilitiesResponseSchema = z.object({ supported_models: z.array(z.object({ model_name: z.string() })), dev_server: devServerNote });
export const CreateSessionResponseSchema = z.object({
  type: z.literal('create_session').default('create_session'),
  info_message: z.string().nullish(),
  warning_message: z.string().nullish(),
  error_message: z.string().nullish(),
  session_id: z.string(),
});
export const SessionHeartbeatResponseSchema = z.object({ type: z.literal('session_heartbeat').default('session_heartbeat') });
export const CreateModelResponseSchema = z.object({
  model_id: z.string(),
  base_model: z.string(),
  lora_config: LoraConfigSchema.nullish(),
  status: z.string().default('created'),
  request_id: z.string(),
});
export const UnloadModelResponseSchema = z.object({ request_id: z.string(), model_id: z.string() });
export const ModelInfoResponseSchema = z.object({
  model_id: z.string(),
  status: z.string(),
  model_data: z.object({ base_model: z.string(), lora_config: LoraConfigSchema.nullish(), model_name: z.string().nullish() }),
});
export const CreateSamplingSessionResponseSchema = z.object({
  type: z.literal('create_sampling_session').default('create_sampling_session'),
  sampling_session_id: z.string(),
});
export const FutureResponseSchema = z.object({ future_id: z.string(), status: z.string().default('pending'), request_id: z.string() });

// ---- Future results (retrieve_future 200 bodies; skyrl/tinker/types.py *Output) ----

export const CreateModelOutputSchema = z.object({
  model_id: z.string(),
  base_model: z.string(),
  lora_config: z.object({
    rank: int(),
    alpha: z.number(),
    seed: int(),
    train_attn: z.boolean().default(true),
    train_mlp: z.boolean().default(true),
    train_unembed: z.boolean().default(false),
  }),
});
export const UnloadModelOutputSchema = z.object({ model_id: z.string(), status: z.string(), type: z.string().default('unload_model') });
// Pydantic writes NaN and infinities as null: read back as NaN, so a diverging step says so instead of failing the shape check.
const numberOrNaN = () =>
  z
    .number()
    .nullable()
    .transform((x) => x ?? Number.NaN);
const OutputTensorSchema = z.object({ data: z.array(numberOrNaN()), dtype: z.string().nullish(), shape: z.array(int()).nullish() });

// Backends differ in what each output holds: logprobs and elementwise_loss (JAX), only logprobs (forward), values (critic), or nothing.
export const ForwardBackwardOutputSchema = z.object({
  loss_fn_output_type: z.string(),
  loss_fn_outputs: z.array(
    z.object({ logprobs: OutputTensorSchema.optional(), elementwise_loss: OutputTensorSchema.optional(), values: OutputTensorSchema.optional() }),
  ),
  // SkyRL types this as a bare dict; keep the numbers.
  metrics: z
    .record(z.string(), z.unknown())
    .transform((m) => Object.fromEntries(Object.entries(m).filter((e): e is [string, number] => typeof e[1] === 'number'))),
});
export const OptimStepOutputSchema = z.object({ metrics: z.record(z.string(), numberOrNaN()).nullish() });
export const SaveWeightsForSamplerOutputSchema = z.object({ path: z.string().nullish(), type: z.string(), sampling_session_id: z.string().nullish() });
export const SaveWeightsOutputSchema = z.object({ path: z.string(), type: z.string() });
export const LoadWeightsOutputSchema = z.object({ type: z.string() });
export const SampleOutputSchema = z.object({
  // A null logprob (NaN on the server) or none at all reaches checkSample, which makes the rollout an infrastructure failure.
  sequences: z.array(
    z.object({
      stop_reason: z.enum(['length', 'stop']),
      tokens: z.array(int()),
      logprobs: z
        .array(z.number().nullable())
        .nullish()
        .transform((x) => x ?? null),
    }),
  ),
  prompt_logprobs: z.array(z.number().nullable()).nullish(),
  topk_prompt_logprobs: z.array(z.array(z.tuple([int(), z.number()])).nullable()).nullish(),
});

export type WireModelInput = z.output<typeof ModelInputSchema>;
export type WireDatum = z.output<typeof DatumSchema>;
export type ForwardBackwardResult = z.output<typeof ForwardBackwardOutputSchema>;
export type SampleResult = z.output<typeof SampleOutputSchema>;

/** `tinker://<primary>/<kind>/<secondary>` or `tinker://<primary>/<secondary>` (kind ''), as TinkerPath.parse reads it. */
export function parseTinkerPath(path: string): { primaryId: string; kind: string; secondaryId: string } | undefined {
  const m = /^tinker:\/\/([^/?#]*)\/([^?#]*)$/.exec(path);
  if (!m) return undefined;
  const parts = m[2].split('/');
  if (parts.length === 1) return { primaryId: m[1], kind: '', secondaryId: parts[0] };
  if (parts.length === 2) return { primaryId: m[1], kind: parts[0], secondaryId: parts[1] };
  return undefined;
}
