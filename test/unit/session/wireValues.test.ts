import * as assert from 'node:assert/strict';
import { jsonEqual, sanitizeContent, sanitizeLocations } from '../../../src/extension/session/model/wireValues';

describe('jsonEqual', () => {
  it('compares JSON values structurally, a key holding undefined being the same as an absent one', () => {
    assert.equal(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 }), true);
    assert.equal(jsonEqual({ a: 1, gone: undefined }, { a: 1 }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, gone: undefined }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: 1, b: 2 }), false);
    assert.equal(jsonEqual({ a: 1, b: 2 }, { a: 1 }), false);
    assert.equal(jsonEqual({ a: undefined }, { b: undefined }), true);
    assert.equal(jsonEqual({ a: 1 }, { a: undefined }), false);
    assert.equal(jsonEqual({ a: null }, { a: undefined }), false);
    assert.equal(jsonEqual([1, 2], { 0: 1, 1: 2 }), false);
    assert.equal(jsonEqual([1, 2], [1, 2, 3]), false);
    assert.equal(jsonEqual({ a: { b: { c: 1 } } }, { a: { b: { c: 2 } } }), false);
    assert.equal(jsonEqual('x', 'x'), true);
    assert.equal(jsonEqual(null, {}), false);
  });

  it('ignores inherited keys', () => {
    const inherited = Object.create({ extra: 1 }) as Record<string, unknown>;
    inherited.a = 1;
    assert.equal(jsonEqual(inherited, { a: 1 }), true);
  });
});

describe('sanitizeContent and sanitizeLocations', () => {
  it('keep a clean list as sent and copy only a list they drop items from', () => {
    const content = [{ type: 'diff', path: '/a', oldText: null, newText: 'x' }];
    assert.equal(sanitizeContent(content).items, content);
    const locations = [{ path: '/a', line: 3 }];
    assert.equal(sanitizeLocations(locations).items, locations);
    const mixed = [{ type: 'terminal', terminalId: 't' }, { type: 'nope' }];
    const sanitized = sanitizeContent(mixed);
    assert.deepEqual(sanitized.items, [{ type: 'terminal', terminalId: 't' }]);
    assert.equal(sanitized.dropped.length, 1);
    assert.deepEqual(mixed.length, 2, 'the message is left as it came');
  });
});
