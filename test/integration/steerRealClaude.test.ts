// Steering with Claude's real ACP adapter and a real model, opt-in: it runs only when
// ACP_REAL_CLAUDE points at the adapter installed OUTSIDE the repo and ANTHROPIC_API_KEY holds a
// key (never logged: it goes to the agent's environment only), e.g.
//   mkdir /tmp/real-agents && cd /tmp/real-agents && npm i @agentclientprotocol/claude-agent-acp
//   ACP_REAL_CLAUDE=/tmp/real-agents/node_modules/.bin/claude-agent-acp ANTHROPIC_API_KEY=… \
//     node harness/host/run-offline.mjs --grep "steer with real Claude"
// The model decides what it writes, so the check is only that the steer reached the running turn:
// `injected`, shown as the user's message, and the answer after it names the steered word.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { ChangedSettings, getApi, useAgent } from '../../harness/inHost/extension';
import { isMultiRoot, waitFor, within } from './support/helpers';

describe('steer with real Claude (opt-in)', function () {
  this.timeout(600_000);
  let api: AcpNativeApi;
  let home: string | undefined;
  const changed = new ChangedSettings();

  before(async function () {
    const adapter = process.env.ACP_REAL_CLAUDE;
    const key = process.env.ANTHROPIC_API_KEY;
    if (isMultiRoot() || !adapter || !key) this.skip();
    api = await getApi();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-claude-home-'));
    await useAgent(api, { name: 'claude-real', command: adapter, args: [], env: { HOME: home, ANTHROPIC_API_KEY: key } }, changed);
    await within('a session', api.newSession(), 120_000);
  });

  after(async () => {
    await api?.stopAgent();
    await changed.restore();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it('a steer reaches the model in the running turn', async () => {
    const turn = api.prompt('Count slowly from 1 to 200, one number per line, with no other text.');
    await waitFor('the answer to start streaming', () => api.conversation().at(-1)?.role === 'agent', 120_000);
    assert.equal(await api.steer('Stop counting. Reply with only the word PINEAPPLE.'), 'injected');
    assert.equal(await within('the steered turn', turn, 300_000), 'end_turn');
    const messages = api.conversation();
    const steerAt = messages.findIndex((m) => m.role === 'user' && m.text.includes('PINEAPPLE'));
    assert.ok(steerAt > 0, 'the steer shows as a user message');
    assert.ok(messages.slice(steerAt + 1).some((m) => m.role === 'agent' && m.text.includes('PINEAPPLE')), JSON.stringify(messages.slice(steerAt)));
  });
});
