import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ChatModel } from '../../src/model/chat-model.js';
import { createModel } from '../../src/model/select.js';
import { UserError } from '../../src/util/errors.js';
import { startScriptedModel } from '../helpers/model-server.js';

const noEnv = { env: {} };

async function userError(p: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(p, (e: Error) => {
    assert.ok(e instanceof UserError, `a UserError, not ${e.name}: ${e.message}`);
    assert.match(e.message, message);
    assert.ok(e.hint, 'with a hint');
    return true;
  });
}

describe('createModel from CLI options', () => {
  it('builds a chat model from --model, --base-url, --api-key, --model-timeout and --extra-body', async () => {
    const server = await startScriptedModel(() => ({ content: 'ok' }));
    try {
      const model = await createModel(
        {
          model: 'qwen',
          'base-url': server.url,
          'api-key': 'sk-1',
          'model-timeout': '2.5',
          'extra-body': '{"chat_template_kwargs":{"enable_thinking":false}}',
        },
        { ...noEnv, logprobs: true },
      );
      assert.ok(model instanceof ChatModel);
      assert.equal(model.name, 'chat:qwen');
      assert.equal(model.opts.timeoutMs, 2500);
      await model.turn({ messages: [{ role: 'user', content: 'x' }] });
      const req = server.requests[0]!;
      assert.equal(req.body.model, 'qwen');
      assert.equal(req.headers.authorization, 'Bearer sk-1');
      assert.deepEqual(req.body.chat_template_kwargs, { enable_thinking: false });
      assert.equal(req.body.logprobs, true);
    } finally {
      await server.close();
    }
  });

  it('reads OPENAI_BASE_URL and OPENAI_API_KEY; flags win over them', async () => {
    const env = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'from-env' };
    const fromEnv = (await createModel({ model: 'm' }, { env })) as ChatModel;
    assert.equal(fromEnv.opts.baseUrl, 'http://127.0.0.1:9/v1');
    assert.equal(fromEnv.opts.apiKey, 'from-env');
    const fromFlags = (await createModel({ model: 'm', 'base-url': 'http://127.0.0.1:8/v1', 'api-key': 'flag' }, { env })) as ChatModel;
    assert.equal(fromFlags.opts.baseUrl, 'http://127.0.0.1:8/v1');
    assert.equal(fromFlags.opts.apiKey, 'flag');
  });

  it('says what is missing', async () => {
    await userError(createModel({}, noEnv), /no model given/);
    await userError(createModel({ model: 'm' }, noEnv), /needs a chat server/);
    await userError(createModel({ model: 'embedded' }, noEnv), /embedded RL policy, which this command does not take/);
  });

  it('rejects bad values', async () => {
    const base = { model: 'm', 'base-url': 'http://127.0.0.1:1/v1' };
    await userError(createModel({ ...base, 'extra-body': '{nope' }, noEnv), /--extra-body is not valid JSON/);
    await userError(createModel({ ...base, 'extra-body': '[1]' }, noEnv), /must be a JSON object/);
    await userError(createModel({ ...base, 'model-timeout': '-3' }, noEnv), /--model-timeout must be a positive number/);
    await userError(createModel({ ...base, 'model-timeout': 'soon' }, noEnv), /--model-timeout/);
    await userError(createModel({ model: 'm', 'base-url': 'localhost:8000' }, noEnv), /--base-url must be http or https|is not a URL/);
    await userError(createModel({ model: 'm', 'base-url': 'not a url' }, noEnv), /is not a URL/);
  });

  it('rejects conflicting options', async () => {
    await userError(createModel({ model: 'm', 'model-path': 'x.gguf' }, noEnv), /either --model or --model-path/);
    await userError(createModel({ 'model-path': 'x.gguf', 'base-url': 'http://127.0.0.1:1/v1' }, noEnv), /--base-url is for a chat server/);
    await userError(createModel({ 'model-path': 'x.gguf', 'extra-body': '{}' }, noEnv), /--extra-body is for a chat server/);
  });

  it('checks --model-path before loading anything', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'frognano-select-'));
    try {
      await userError(createModel({ 'model-path': join(dir, 'missing.gguf') }, noEnv), /does not exist/);
      writeFileSync(join(dir, 'weights.safetensors'), '{"not":"gguf"}');
      await userError(createModel({ 'model-path': join(dir, 'weights.safetensors') }, noEnv), /not a GGUF file/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
