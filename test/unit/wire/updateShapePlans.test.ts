import * as assert from 'node:assert/strict';
import * as unstable from '@agentclientprotocol/sdk/unstable';
import { removeSdkSessionRouter } from '../../../src/extension/wire/agentConnection';
import { checkSessionNotification, isUnknownUpdateKind } from '../../../src/extension/wire/updateShape';

// The plan operations are only in the `/unstable` schema of SDK 2.4: the check agrees with that one.
const wrap = (update: unknown) => ({ sessionId: 's', update });
const valid: Record<string, unknown>[] = [
  { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'plan-mode', content: '# Plan\n\n1. Read' } },
  { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: '' }, _meta: { x: 1 } },
  { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'f', uri: 'file:///home/u/.claude/plans/a.md' } },
  { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'i', entries: [{ content: 'Step', priority: 'high', status: 'completed' }] } },
  { sessionUpdate: 'plan_removed', planId: 'p' },
];

const mutated: [string, unknown, string][] = [
  ['plan missing', { sessionUpdate: 'plan_update' }, 'plan'],
  ['planId missing', { sessionUpdate: 'plan_update', plan: { type: 'markdown', content: 'x' } }, 'plan.planId'],
  ['type unknown', { sessionUpdate: 'plan_update', plan: { type: 'slides', planId: 'p' } }, 'plan.type'],
  ['markdown content a number', { sessionUpdate: 'plan_update', plan: { type: 'markdown', planId: 'p', content: 3 } }, 'plan.content'],
  ['file uri missing', { sessionUpdate: 'plan_update', plan: { type: 'file', planId: 'p' } }, 'plan.uri'],
  ['items entry status unknown', { sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'p', entries: [{ content: 'a', priority: 'high', status: 'x' }] } }, 'plan.entries[0].status'],
  ['removed planId a number', { sessionUpdate: 'plan_removed', planId: 1 }, 'planId'],
];

describe('checkSessionNotification: plan operations (the /unstable schema)', () => {
  it('accepts the valid forms as known kinds', () => {
    for (const update of valid) {
      const checked = checkSessionNotification(wrap(update));
      assert.ok(checked.ok, checked.ok ? '' : checked.problem.message);
      assert.equal(isUnknownUpdateKind(checked.notification), false);
    }
  });

  for (const [description, update, field] of mutated) {
    it(`rejects: ${description}, naming ${field}`, () => {
      const checked = checkSessionNotification(wrap(update));
      assert.equal(checked.ok, false);
      if (!checked.ok) assert.ok(checked.problem.message.includes(` ${field} must be`), checked.problem.message);
    });
  }

  it("agrees with the SDK's /unstable zod schema on the valid forms", async () => {
    const received: unknown[] = [];
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const app = unstable.client({ name: 'zod' }).onNotification(unstable.methods.client.session.update, ({ params }) => void received.push(params));
      removeSdkSessionRouter(app as unknown as Parameters<typeof removeSdkSessionRouter>[0]);
      const bytes = new TextEncoder().encode(valid.map((u) => `${JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: wrap(u) })}\n`).join(''));
      const input = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(bytes) });
      const connection = app.connect(unstable.ndJsonStream(new WritableStream<Uint8Array>(), input));
      const deadline = Date.now() + 5000;
      while (received.length < valid.length && Date.now() < deadline) await new Promise((r) => setImmediate(r));
      connection.close();
    } finally {
      console.error = original;
    }
    assert.deepEqual(errors, []);
    assert.equal(received.length, valid.length);
  });
});
