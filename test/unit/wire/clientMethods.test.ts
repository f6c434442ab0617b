import * as assert from 'node:assert/strict';
import * as acp from '@agentclientprotocol/sdk';
import { beforeEachRequest, CLIENT_METHODS, CLIENT_METHOD_NAMES, type ClientRequestHandlers } from '../../../src/extension/wire/clientMethods';

/** Handlers that answer with the params they were given, and remember the `this` they ran with. */
function echoHandlers(): { handlers: ClientRequestHandlers; thisSeen: unknown[] } {
  const thisSeen: unknown[] = [];
  const handlers = Object.fromEntries(
    CLIENT_METHOD_NAMES.map((name) => [
      name,
      function (this: unknown, params: unknown) {
        thisSeen.push(this);
        return Promise.resolve(params);
      },
    ]),
  ) as unknown as ClientRequestHandlers;
  return { handlers, thisSeen };
}

describe('client methods (the one table of what the agent may ask)', () => {
  it('holds every request method the SDK lets an agent send a client', () => {
    const notifications = new Set<string>([acp.methods.client.session.update, acp.methods.client.elicitation.complete]);
    const sdkRequests = Object.values(acp.methods.client)
      .flatMap((group) => Object.values(group) as string[])
      .filter((method) => !notifications.has(method));
    assert.deepEqual(new Set(Object.values(CLIENT_METHODS)), new Set(sdkRequests));
  });

  it('passes every request through the check before its handler, bound to the handlers', async () => {
    const { handlers, thisSeen } = echoHandlers();
    const renamed = beforeEachRequest(handlers, <P>(params: P): P => ({ ...params, sessionId: 'editor-id' }));
    for (const name of CLIENT_METHOD_NAMES) {
      const answer = await (renamed[name] as (p: unknown, s: AbortSignal) => Promise<unknown>)({ sessionId: 'agent-id' }, new AbortController().signal);
      assert.deepEqual(answer, { sessionId: 'editor-id' }, name);
    }
    assert.ok(thisSeen.every((t) => t === handlers));
  });

  it('fails the request, not the caller, when the check throws', async () => {
    const { handlers } = echoHandlers();
    const refusing = beforeEachRequest(handlers, () => {
      throw new Error('not a session of this agent');
    });
    await assert.rejects(refusing.readTextFile({ sessionId: 's', path: '/a' }, new AbortController().signal), /not a session of this agent/);
  });
});
