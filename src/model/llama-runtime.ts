// What the embedded GGUF model needs before any weights are read: the
// node-llama-cpp package, installed only on request (loaded on demand, with a clear error when
// it is not installed) and a check that a --model-path is a GGUF file.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { errnoCode, UserError } from '../util/errors.js';
import { isRecord } from '../util/guards.js';

import type { NodeLlamaCpp } from './llama-api.js';

export const NODE_LLAMA_CPP_VERSION = '3.21.1';
/** The package name in a variable: it is installed only on request, so the compiler must not resolve it. */
export const NODE_LLAMA_CPP = 'node-llama-cpp';
/** The one command that installs it, without changing package.json (a later `npm ci` removes it). */
export const NODE_LLAMA_CPP_INSTALL = `npm install --no-save ${NODE_LLAMA_CPP}@${NODE_LLAMA_CPP_VERSION}`;

/** The entry points are there; their signatures are checked by tsc against the package (tests/model/llama-api.test.ts). */
function isNodeLlamaCpp(mod: unknown): mod is NodeLlamaCpp {
  return isRecord(mod) && typeof mod.getLlama === 'function' && typeof mod.resolveChatWrapper === 'function' && isRecord(mod.LlamaLogLevel);
}

/** node-llama-cpp, imported on first use; it is not installed by default. */
export async function loadNodeLlamaCpp(name = NODE_LLAMA_CPP): Promise<NodeLlamaCpp> {
  try {
    const mod: unknown = await import(name);
    if (!isNodeLlamaCpp(mod))
      throw new UserError(`${name} does not have the API of node-llama-cpp ${NODE_LLAMA_CPP_VERSION}`, `install it with: ${NODE_LLAMA_CPP_INSTALL}`);
    return mod;
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new UserError(
        '--model-path (an embedded GGUF model) needs node-llama-cpp, which the default install leaves out (about 730 MB with its GPU binaries)',
        `install it with: ${NODE_LLAMA_CPP_INSTALL} (or serve the model with a chat server and pass --model NAME --base-url URL)`,
      );
    }
    throw err;
  }
}

/** Throws a UserError unless `path` is a readable file that starts with the GGUF magic. */
export function checkGgufFile(path: string): void {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new UserError(`--model-path ${path} is not a file`, 'pass the path of a .gguf model file');
    size = st.size;
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(`--model-path ${path} does not exist`, 'pass the path of a .gguf model file');
  }
  const head = Buffer.alloc(4);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  if (size < 4 || head.toString('latin1') !== 'GGUF') {
    throw new UserError(
      `--model-path ${path} is not a GGUF file (it does not start with "GGUF")`,
      'convert the model to GGUF (llama.cpp convert_hf_to_gguf.py) or pass a .gguf file',
    );
  }
}
