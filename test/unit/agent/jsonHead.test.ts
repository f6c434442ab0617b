import * as assert from 'node:assert/strict';
import { readJsonHead } from '../../../src/agent/stdio/jsonHead';
import { oversizedOutcome } from '../../../src/agent/stdio/oversized';

const MiB = 2 ** 20;

describe('the head of a message too big to parse', () => {
  it('reads the id and method of a request cut inside its params', () => {
    const head = readJsonHead('{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"xxxx');
    assert.deepEqual(head, { keys: ['jsonrpc', 'id', 'method', 'params'], id: 7, method: 'session/prompt' });
  });

  it('reads string ids with escapes, and members in any order and spacing', () => {
    assert.deepEqual(readJsonHead(' { "method" : "m" , "id" : "a\\"b" , "params" : ['), { keys: ['method', 'id', 'params'], id: 'a"b', method: 'm' });
    assert.deepEqual(readJsonHead('{"params":{"a":[1,{"id":9}],"s":"}\\""},"id":3,"method":"x","more":"'), {
      keys: ['params', 'id', 'method', 'more'],
      id: 3,
      method: 'x',
    });
  });

  it('does not take a nested id, or one that may go on past the head', () => {
    assert.deepEqual(readJsonHead('{"params":{"id":1,"text":"xxx'), { keys: ['params'] });
    assert.deepEqual(readJsonHead('{"jsonrpc":"2.0","id":12'), { keys: ['jsonrpc', 'id'] }, '12 may be the start of 123');
    assert.deepEqual(readJsonHead('{"jsonrpc":"2.0","id":"abc'), { keys: ['jsonrpc', 'id'] });
  });

  it('stops at what is not a JSON object', () => {
    assert.deepEqual(readJsonHead('[{"id":1,"method":"m"}'), { keys: [] });
    assert.deepEqual(readJsonHead('not json at all'), { keys: [] });
    assert.deepEqual(readJsonHead('{"id" 1,"method":"m"}'), { keys: [] });
    assert.deepEqual(readJsonHead('{"id":1 "method":"m"}'), { keys: ['id'], id: 1 });
    assert.deepEqual(readJsonHead(''), { keys: [] });
  });
});

describe('who hears of a message over the limit', () => {
  const limit = 32 * MiB;

  it('answers a request with an Invalid Request error naming the size and the limit', () => {
    const { action, note } = oversizedOutcome({ keys: ['jsonrpc', 'id', 'method', 'params'], id: 7, method: 'session/prompt' }, 50 * MiB, limit);
    assert.equal(action.kind, 'answer');
    assert.ok(action.kind === 'answer');
    assert.equal(action.response.id, 7);
    assert.ok('error' in action.response && action.response.error !== undefined);
    assert.equal(action.response.error.code, -32600);
    assert.match(action.response.error.message, /52428800 bytes \(50 MiB\), over the 33554432 bytes \(32 MiB\) limit/);
    assert.deepEqual(action.response.error.data, { bytes: 50 * MiB, maxMessageBytes: limit });
    assert.match(note, /answered request 7 \(session\/prompt\) with an error/);
  });

  it("fails the agent's own request when the client's response to it is too big", () => {
    const { action, note } = oversizedOutcome({ keys: ['jsonrpc', 'id', 'result'], id: 3 }, 40 * MiB, limit);
    assert.ok(action.kind === 'fail');
    assert.equal(action.response.id, 3);
    assert.ok('error' in action.response && action.response.error !== undefined);
    assert.match(action.response.error.message, /the client's response is 41943040 bytes/);
    assert.match(note, /response to request 3, which fails/);
  });

  it('only logs a notification, an unreadable id, or what is no JSON-RPC message', () => {
    const cases: [Parameters<typeof oversizedOutcome>[0], RegExp][] = [
      [{ keys: ['jsonrpc', 'method', 'params'], method: 'session/cancel' }, /the session\/cancel notification \(no id before its params\), not answered/],
      [{ keys: ['params'] }, /a notification \(no id before its params\)/],
      [{ keys: ['jsonrpc', 'id'] }, /its id could not be read/],
      [{ keys: [] }, /no JSON-RPC id in its first bytes/],
    ];
    for (const [head, note] of cases) {
      const outcome = oversizedOutcome(head, 33 * MiB, limit);
      assert.equal(outcome.action.kind, 'skip');
      assert.match(outcome.note, note);
    }
  });
});
