import * as assert from 'node:assert/strict';
import { JsonLineFilter } from '../../../src/extension/core/ndjsonFilter';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('JSON line filter (agent stdout)', () => {
  it('passes JSON-RPC lines and skips banners and debug prints', () => {
    const skipped: string[] = [];
    const f = new JsonLineFilter((l) => skipped.push(l));
    const out = f.push(bytes('Starting agent v1.2…\n{"jsonrpc":"2.0","id":1,"result":{}}\nDEBUG: x\n'));
    assert.equal(out, '{"jsonrpc":"2.0","id":1,"result":{}}\n');
    assert.deepEqual(skipped, ['Starting agent v1.2…', 'DEBUG: x']);
  });

  it('reassembles a message split across chunks, including a multi-byte character', () => {
    const f = new JsonLineFilter(() => assert.fail('nothing to skip'));
    const all = bytes('{"text":"漢字"}\n');
    assert.equal(f.push(all.slice(0, 10)), '');
    assert.equal(f.push(all.slice(10)), '{"text":"漢字"}\n');
  });

  it('accepts CRLF line ends and flushes a last unterminated line', () => {
    const f = new JsonLineFilter(() => undefined);
    assert.equal(f.push(bytes('{"a":1}\r\n{"b":2}')), '{"a":1}\n');
    assert.equal(f.end(), '{"b":2}\n');
  });
});
