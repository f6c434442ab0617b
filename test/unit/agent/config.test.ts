import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { parseConfig } from '../../../src/agent/config';

describe('agent configuration', () => {
  it('defaults to the scripted brain, ask mode and a per-user state folder', () => {
    const parsed = parseConfig([], { XDG_STATE_HOME: '/xdg' });
    assert.deepEqual(parsed, { ok: true, config: { stateDir: path.join('/xdg', 'acp-native'), brain: 'scripted', defaultMode: 'ask' } });
  });

  it('takes flags over ACP_NATIVE_* over OPENAI_* variables', () => {
    const parsed = parseConfig(['--brain', 'llm', '--model', 'flag-model'], {
      ACP_NATIVE_STATE_DIR: '/state',
      ACP_NATIVE_LLM_MODEL: 'env-model',
      ACP_NATIVE_LLM_BASE_URL: 'http://acp',
      OPENAI_BASE_URL: 'http://openai',
      OPENAI_API_KEY: 'sk-openai',
    });
    assert.deepEqual(parsed, {
      ok: true,
      config: { stateDir: '/state', brain: 'llm', defaultMode: 'ask', llm: { model: 'flag-model', baseURL: 'http://acp', apiKey: 'sk-openai' } },
    });
  });

  it('refuses the llm brain without a model, and unknown values, with a message', () => {
    const noModel = parseConfig(['--brain', 'llm'], {});
    assert.equal(noModel.ok, false);
    assert.match(noModel.ok ? '' : noModel.message, /needs a model/);
    assert.equal(parseConfig(['--mode', 'yolo'], {}).ok, false);
    assert.equal(parseConfig(['--bogus'], {}).ok, false);
    const help = parseConfig(['--help'], {});
    assert.deepEqual(help.ok ? undefined : help.exitCode, 0);
  });
});
