import * as assert from 'node:assert/strict';
import { contextMeter } from '../../../src/extension/chat/model/contextMeter';
import { CHAT_PROTOCOL_VERSION, parseWebviewMessage } from '../../../src/protocol/chat';

const compact = [{ name: 'compact', description: 'Free up context by summarizing the conversation so far', input: { hint: '<optional custom summarization instructions>' } }];

describe('the context meter', () => {
  it('is normal at 50 %, amber from 80 %, red from 95 %', () => {
    const at = (used: number) => contextMeter({ used, size: 200_000, cost: undefined }, []);
    assert.deepEqual([at(100_000).level, at(100_000).fraction, at(100_000).label], ['normal', 0.5, '100k / 200k (50 %)']);
    assert.equal(at(159_999).level, 'normal');
    assert.equal(at(160_000).level, 'warning');
    assert.equal(at(170_000).label, '170k / 200k (85 %)');
    assert.equal(at(189_999).level, 'warning');
    assert.equal(at(190_000).level, 'critical');
    assert.equal(at(194_000).label, '194k / 200k (97 %)');
  });

  it('handles used > size: full, red, and says so; a size of 0 shows the tokens only', () => {
    const over = contextMeter({ used: 1_250_000, size: 1_000_000, cost: undefined }, []);
    assert.deepEqual([over.fraction, over.level, over.label], [1, 'critical', '1.3M / 1M (over the window)']);
    assert.match(over.detail, /1,250,000 of 1,000,000 tokens used \(125 %\), more than the window holds/);
    const unsized = contextMeter({ used: 5_000, size: 0, cost: undefined }, []);
    assert.deepEqual([unsized.fraction, unsized.level, unsized.label], [null, 'normal', '5k tokens']);
  });

  it('puts the exact numbers and the cost in the tooltip, and offers Compact when the agent has /compact', () => {
    const meter = contextMeter({ used: 123_456, size: 1_000_000, cost: { amount: 0.0412, currency: 'USD' } }, compact);
    assert.equal(meter.detail, 'Context window: 123,456 of 1,000,000 tokens used (12 %) · cost 0.04 USD');
    assert.equal(meter.canCompact, true);
    assert.equal(contextMeter(undefined, []).used, null, 'before the first usage_update: no numbers');
    assert.equal(contextMeter(undefined, compact).canCompact, true);
  });

  it('the webview may set a toggle with a boolean and ask for Compact, New session from summary and Open', () => {
    const v = CHAT_PROTOCOL_VERSION;
    assert.deepEqual(parseWebviewMessage({ v, type: 'setConfigOption', configId: 'fast', value: true }), { ok: true, message: { v, type: 'setConfigOption', configId: 'fast', value: true } });
    assert.equal(parseWebviewMessage({ v, type: 'setConfigOption', configId: 'fast', value: 1 }).ok, false);
    assert.ok(parseWebviewMessage({ v, type: 'compact' }).ok);
    assert.ok(parseWebviewMessage({ v, type: 'newSessionFromSummary' }).ok);
    assert.ok(parseWebviewMessage({ v, type: 'openPlan', planId: 'plan-mode' }).ok);
    assert.equal(parseWebviewMessage({ v, type: 'openPlan', planId: '' }).ok, false);
  });
});
