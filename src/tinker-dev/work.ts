// What the dev server's futures compute on a DevModel: wire data to the
// model's types, model passes, sampling (with prompt logprobs from a forward
// pass), and checkpoint files. Errors thrown here become failed futures.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { z } from 'zod';
import type { Datum, LossInputKey, TensorData } from '../tinker/types.js';
import type { ForwardBackwardInputSchema, SampleOutputSchema, SampleRequestSchema, WireDatum, WireModelInput } from '../tinker/wire.js';
import type { DevModel } from './backend.js';
import type { CheckpointKind, ModelRecord } from './state.js';

const CHECKPOINT_FORMAT = 'frognano-tinker-dev-checkpoint/1';
const LOSS_INPUT_KEYS: readonly LossInputKey[] = ['target_tokens', 'weights', 'logprobs', 'advantages', 'values', 'returns'];

/** The loaded model, or the error SkyRL's engine gives for a model it does not hold. */
export function loaded(record: ModelRecord): DevModel {
  if (!record.model) throw new Error(`Model ${record.id} not loaded`);
  return record.model;
}

function tokensOf(input: WireModelInput, where: string): number[] {
  return input.chunks.flatMap((chunk) => {
    if (chunk.type !== 'encoded_text') throw new Error(`${where}: the dev model takes encoded_text chunks only, got a '${chunk.type}' chunk`);
    return chunk.tokens;
  });
}

/** Wire datums as the model's Datum: one encoded_text chunk, the known loss inputs, weights 1 where absent (as SkyRL's to_types). */
function toDatum(d: WireDatum, index: number): Datum {
  const tokens = tokensOf(d.model_input, `datum ${index}`);
  const inputs: Partial<Record<LossInputKey, TensorData>> = {};
  for (const key of LOSS_INPUT_KEYS) if (d.loss_fn_inputs[key]) inputs[key] = d.loss_fn_inputs[key];
  const targets = d.loss_fn_inputs.target_tokens ?? { data: [] };
  return {
    model_input: { chunks: [{ type: 'encoded_text', tokens }] },
    loss_fn_inputs: { ...inputs, target_tokens: targets, weights: inputs.weights ?? { data: targets.data.map(() => 1) } },
  };
}

export function runModelPass(model: DevModel, input: z.output<typeof ForwardBackwardInputSchema>, backward: boolean) {
  const data = input.data.map(toDatum);
  const what = backward ? 'forward_backward' : 'forward';
  try {
    return model.forwardBackward(data, input.loss_fn, input.loss_fn_config ?? undefined, backward);
  } catch (err) {
    throw new Error(`dev model ${what} with loss_fn='${input.loss_fn}': ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Log-probabilities of prompt tokens 1..n-1 given their prefixes; the first has none (null), as in SkyRL. */
function promptLogprobs(model: DevModel, prompt: number[]): (number | null)[] {
  if (prompt.length < 2) return prompt.map(() => null);
  const datum: Datum = {
    model_input: { chunks: [{ type: 'encoded_text', tokens: prompt.slice(0, -1) }] },
    loss_fn_inputs: { target_tokens: { data: prompt.slice(1) } },
  };
  const out = model.forwardBackward([datum], 'cross_entropy', undefined, false);
  return [null, ...(out.loss_fn_outputs[0]?.logprobs.data ?? [])];
}

export function runSample(model: DevModel, req: z.output<typeof SampleRequestSchema>, maxTokens: number): z.input<typeof SampleOutputSchema> {
  const prompt = tokensOf(req.prompt, 'prompt');
  const sp = req.sampling_params;
  const stop = sp.stop ?? [];
  if (stop.some((s) => typeof s === 'string')) throw new Error('the dev model has no tokenizer: give stop sequences as token ids');
  if (req.topk_prompt_logprobs > 0) throw new Error('the dev model does not compute top-k prompt logprobs');
  const sequences = model.sample(prompt, req.num_samples, {
    maxTokens,
    temperature: sp.temperature,
    topK: sp.top_k,
    topP: sp.top_p,
    seed: sp.seed ?? Math.floor(Math.random() * 2 ** 31),
    stop: stop.filter((s): s is number => typeof s === 'number'),
  });
  return {
    sequences: sequences.map((s) => ({ stop_reason: s.stop_reason, tokens: s.tokens, logprobs: s.logprobs ?? [] })),
    prompt_logprobs: req.prompt_logprobs ? promptLogprobs(model, prompt) : null,
    topk_prompt_logprobs: null,
  };
}

/** `<dir>/<model>/<checkpoint>.json` for training state, `<dir>/<model>/sampler_weights/<checkpoint>.json` for sampler weights (SkyRL's layout, JSON instead of tar.gz). */
export function checkpointFile(dir: string, modelId: string, kind: CheckpointKind, checkpointId: string): string {
  return kind === 'training' ? join(dir, modelId, `${checkpointId}.json`) : join(dir, modelId, 'sampler_weights', `${checkpointId}.json`);
}

export async function writeCheckpoint(file: string, meta: Record<string, unknown>, state: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify({ format: CHECKPOINT_FORMAT, ...meta, state }));
  await rename(tmp, file);
}

export async function readCheckpoint(file: string): Promise<unknown> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('format' in parsed) || parsed.format !== CHECKPOINT_FORMAT || !('state' in parsed)) {
    throw new Error(`${file} is not a ${CHECKPOINT_FORMAT} file`);
  }
  return parsed.state;
}
