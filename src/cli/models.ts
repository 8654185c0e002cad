// From CLI flags to a factory of models, one Model per episode:
//   --model embedded [--checkpoint policy.json]   the embedded RL policy
//                                                 (untrained without a checkpoint)
//   --model scripted:oracle    applies the task's reference fix (a harness check, not a model)
//   --model scripted:noop      submits at once
//   --model scripted:FILE.json replies from a JSON array of ScriptedReply
//   anything else              an OpenAI-compatible server or a GGUF file (src/model/select.ts)
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { BuiltEnv } from '../env/build.js';
import { oracleModel } from '../eval/oracle.js';
import { referenceFiles } from '../task/reference.js';
import { ScriptedModel, type ScriptedReply } from '../model/scripted.js';
import { createModel, type ModelFlags } from '../model/select.js';
import type { Model } from '../model/types.js';
import { EMBEDDED_KIND } from '../policy/learner.js';
import type { PolicySnapshot } from '../rl/contract.js';
import { EmbeddedAgent } from '../policy/agent.js';
import { LinearPolicy } from '../policy/linear.js';
import type { Task } from '../task/task.js';
import { errorMessage, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';
import { stringFlag } from './flags.js';

export const MODELS_HELP = `Models (--model):
  embedded [--checkpoint FILE]   the embedded RL policy; untrained without a checkpoint
  scripted:oracle                NOT a model: writes each task's reference fix and submits
                                 (checks the harness, verifier and eval wiring; eval only)
  scripted:noop                  NOT a model: submits at once, changing nothing
  scripted:FILE.json             NOT a model: replies from a JSON array of scripted replies
                                 ({"content"?, "toolCalls"?: [{"name", "arguments"}]})
  NAME --base-url URL [--api-key KEY] [--model-timeout S] [--extra-body JSON]
                                 a model on an OpenAI-compatible chat server
  --model-path FILE.gguf         an embedded GGUF model (node-llama-cpp)`;

/** What one episode's model may depend on. */
export interface Episode {
  seed: number;
  /** Absent for `solve`, which has no task. */
  task?: Task;
  built?: BuiltEnv;
}

export interface ModelFactory {
  /** As reports show it. */
  readonly name: string;
  /** True for scripted models: they are harness checks, not learned models. */
  readonly scripted: boolean;
  /** A fresh model for one episode. */
  forEpisode(ep: Episode): Promise<Model>;
  close(): Promise<void>;
  /** The weights queue workers act with (the embedded policy); absent: workers make the model from the flags (modelFlags). */
  snapshot?: PolicySnapshot;
}

/** The flags that make a model, as they travel to queue workers (an API key stays behind: each worker reads its own OPENAI_API_KEY). */
export function modelFlags(flags: Record<string, string | boolean | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['model', 'base-url', 'model-timeout', 'extra-body', 'model-path'] as const) {
    const v = flags[k];
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

function scriptFile(path: string): ScriptedReply[] {
  if (!existsSync(path))
    throw new UserError(`no scripted model "${path}"`, 'use scripted:oracle, scripted:noop, or scripted:FILE.json with a JSON array of replies');
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError(
      `${path} is not valid JSON: ${errorMessage(err)}`,
      'a JSON array of replies: [{"toolCalls":[{"name":"Write","arguments":{...}}]}, {"content":"done"}]',
    );
  }
  const replies = Array.isArray(value) ? value.map(fileReply) : [undefined];
  if (!replies.every((r) => r !== undefined))
    throw new UserError(
      `${path} is not a list of scripted replies`,
      'each reply is {"content"?: string, "toolCalls"?: [{"name": string, "arguments": object}]}',
    );
  return replies;
}

/** One reply of a script file, copied field by field; undefined when it is not one. */
function fileReply(r: unknown): ScriptedReply | undefined {
  if (!isRecord(r) || (r.content !== undefined && typeof r.content !== 'string')) return undefined;
  const { content, toolCalls, reasoning, finishReason, usage } = r;
  let calls: ScriptedReply['toolCalls'];
  if (toolCalls !== undefined) {
    if (!Array.isArray(toolCalls)) return undefined;
    calls = [];
    for (const c of toolCalls) {
      if (!isRecord(c) || typeof c.name !== 'string') return undefined;
      const args = c.arguments;
      // Missing arguments reach the agent as empty text; other values as their JSON.
      calls.push({ name: c.name, arguments: args === undefined ? '' : typeof args === 'string' || isRecord(args) ? args : JSON.stringify(args) });
    }
  }
  return {
    ...(typeof content === 'string' ? { content } : {}),
    ...(calls ? { toolCalls: calls } : {}),
    ...(typeof reasoning === 'string' ? { reasoning } : {}),
    ...(typeof finishReason === 'string' ? { finishReason } : {}),
    ...(isRecord(usage)
      ? {
          usage: {
            ...(typeof usage.promptTokens === 'number' ? { promptTokens: usage.promptTokens } : {}),
            ...(typeof usage.completionTokens === 'number' ? { completionTokens: usage.completionTokens } : {}),
          },
        }
      : {}),
  };
}

function scripted(name: string, make: (ep: Episode) => Promise<Model> | Model): ModelFactory {
  return { name, scripted: true, forEpisode: async (ep) => make(ep), close: async () => {} };
}

function scriptedFactory(spec: string): ModelFactory {
  if (spec === 'oracle') {
    return scripted('scripted:oracle', async (ep) => {
      if (!ep.task || !ep.built)
        throw new UserError('scripted:oracle needs a task with a reference fix', 'use it with `frognano eval`; for `solve` pass --model scripted:FILE.json');
      return oracleModel(await referenceFiles(ep.task, ep.built.snapshot));
    });
  }
  if (spec === 'noop')
    return scripted('scripted:noop', () => new ScriptedModel([{ content: 'Scripted no-op model: submitting without changes.' }], { name: 'noop' }));
  const replies = scriptFile(spec);
  return scripted(`scripted:${basename(spec)}`, () => new ScriptedModel(replies, { name: basename(spec) }));
}

function embeddedFactory(checkpoint: string | undefined): ModelFactory {
  let policy: LinearPolicy;
  if (checkpoint === undefined) policy = new LinearPolicy();
  else {
    if (!existsSync(checkpoint)) throw new UserError(`no checkpoint at ${checkpoint}`, 'pass the policy.json a `train` run saved');
    try {
      policy = LinearPolicy.load(checkpoint);
    } catch (err) {
      throw new UserError(`cannot load checkpoint ${checkpoint}: ${errorMessage(err)}`, 'pass a checkpoint saved by this version of the embedded policy');
    }
  }
  const name = checkpoint ? `embedded:${basename(checkpoint)}` : 'embedded:untrained';
  return {
    name,
    scripted: false,
    forEpisode: async (ep) => new EmbeddedAgent(policy, { seed: ep.seed }),
    close: async () => {},
    snapshot: { learner: EMBEDDED_KIND, version: 0, data: policy.toJSON() },
  };
}

/** A shared server or GGUF model; each episode's turns carry the episode's seed. */
function sharedFactory(model: Model): ModelFactory {
  return {
    name: model.name,
    scripted: false,
    forEpisode: async (ep) => ({
      name: model.name,
      supportsTools: model.supportsTools,
      turn: (req) => model.turn({ ...req, seed: req.seed ?? ep.seed }),
    }),
    close: async () => model.close?.(),
  };
}

export async function modelFactory(flags: Record<string, string | boolean | string[] | undefined>): Promise<ModelFactory> {
  const model = stringFlag(flags, 'model');
  const checkpoint = stringFlag(flags, 'checkpoint');
  if (checkpoint !== undefined && model !== 'embedded') throw new UserError('--checkpoint is for --model embedded', 'pass --model embedded --checkpoint FILE');
  if (model === 'embedded') {
    if (flags['model-path'] !== undefined || flags['base-url'] !== undefined)
      throw new UserError('--model embedded takes no --model-path or --base-url', 'drop them, or name a served model instead of embedded');
    return embeddedFactory(checkpoint);
  }
  if (model?.startsWith('scripted:')) {
    const spec = model.slice('scripted:'.length);
    if (!spec) throw new UserError('--model scripted: needs a name', 'use scripted:oracle, scripted:noop or scripted:FILE.json');
    return scriptedFactory(spec);
  }
  const keys = ['model', 'base-url', 'api-key', 'model-timeout', 'extra-body', 'model-path'] as const;
  const modelFlags: ModelFlags = {};
  for (const k of keys) {
    const value = flags[k];
    if (typeof value === 'string') modelFlags[k] = value;
  }
  if (modelFlags.model === undefined && modelFlags['model-path'] === undefined) {
    throw new UserError(
      'no model given',
      'pass --model embedded, --model scripted:oracle|noop|FILE.json, --model NAME --base-url URL, or --model-path FILE.gguf',
    );
  }
  return sharedFactory(await createModel(modelFlags));
}
