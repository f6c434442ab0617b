// Steering with Claude's real ACP adapter and a real model, opt-in (setup: support/realClaude.ts):
//   node harness/host/run-offline.mjs --grep "steer with real Claude" with ACP_REAL_CLAUDE and ANTHROPIC_API_KEY set
// The model decides what it writes, so the check is only that the steer reached the running turn:
// `injected`, shown as the user's message, and the answer after it names the steered word.
import * as assert from 'node:assert/strict';
import { waitFor, within } from './support/helpers';
import { realClaudeSuite } from './support/realClaude';

describe('steer with real Claude (opt-in)', function () {
  this.timeout(600_000);
  const claude = realClaudeSuite();

  it('a steer reaches the model in the running turn', async () => {
    const api = claude();
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
