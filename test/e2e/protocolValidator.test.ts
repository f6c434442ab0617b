/** The schema tap must be able to fail: malformed messages are caught, per method and per response. */
import * as assert from 'node:assert/strict';
import { ProtocolValidator } from './harness/protocolValidator';

describe('ACP schema validation of the tapped stream', () => {
  it('accepts well-formed traffic in both directions', () => {
    const v = new ProtocolValidator();
    v.check('client', '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}');
    v.check('agent', '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}');
    v.check('agent', '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t","title":"x"}}}');
    assert.deepEqual(v.errors, []);
  });

  it('catches a malformed update, a wrong response shape and an unknown method', () => {
    const v = new ProtocolValidator();
    v.check('agent', '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t"}}}');
    v.check('client', '{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s","prompt":[]}}');
    v.check('agent', '{"jsonrpc":"2.0","id":7,"result":{"stopReason":"finished"}}');
    v.check('agent', '{"jsonrpc":"2.0","method":"session/updates","params":{}}');
    v.check('agent', 'console.log leaked');
    assert.equal(v.errors.length, 4, v.errors.join('\n'));
  });
});
