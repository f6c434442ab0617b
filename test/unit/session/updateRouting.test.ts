import * as assert from 'node:assert/strict';
import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import { EarlyUpdates } from '../../../src/extension/session/model/earlyUpdates';
import { KeyedSerialQueue } from '../../../src/extension/base/serialQueue';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { UpdateRouter, type RoutedSession } from '../../../src/extension/session/model/updateRouting';
import type { MessageEntry } from '../../../src/extension/session/model/transcript';

type Agent = 'agent A' | 'agent B';

const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const said = (state: SessionState) => state.transcript.map((e) => (e as MessageEntry).text).join('|');

function setup(options: { aliases?: Record<string, string>; onArrived?: (n: SessionNotification) => void } = {}) {
  const queue = new KeyedSerialQueue();
  const sessions = new Map<string, RoutedSession<Agent>>();
  const logged: string[] = [];
  const early = new EarlyUpdates<SessionUpdate>({ maxHeld: 10, log: (m) => logged.push(m) });
  const errors: string[] = [];
  const router = new UpdateRouter<Agent>({
    queue,
    sessions,
    early,
    clientIdOf: (connection, agentSessionId) => options.aliases?.[`${connection}/${agentSessionId}`] ?? agentSessionId,
    onArrived: options.onArrived,
    onError: (failed, sessionId, error) => errors.push(`${failed} ${sessionId}: ${(error as Error).message}`),
  });
  const open = (id: string, connection: Agent) => {
    const state = new SessionState({ sessionId: id, cwd: '/p', schedule: () => undefined });
    sessions.set(id, { state, connection });
    return state;
  };
  return { queue, router, early, errors, logged, open };
}

describe('UpdateRouter (session/update to its session, in order)', () => {
  it("applies an agent's updates to its session under the editor's id, and another agent's never", async () => {
    const { router, queue, open, early } = setup({ aliases: { 'agent B/sess_1': 'sess_1 (2)' } });
    const a = open('sess_1', 'agent A');
    const b = open('sess_1 (2)', 'agent B');
    const creating = early.beginCreate();
    router.receive({ sessionId: 'sess_1', update: chunk('from A') }, 'agent A');
    router.receive({ sessionId: 'sess_1', update: chunk('from B') }, 'agent B');
    // Agent B names an id it has no session under: held for its session/new, not given to A.
    router.receive({ sessionId: 'sess_9', update: chunk('early') }, 'agent B');
    // Without a connection: the editor's id, from the session's own agent (a permission request's call).
    router.receive({ sessionId: 'sess_1 (2)', update: chunk(' and the editor') }, undefined);
    await queue.idle('sess_1');
    assert.equal(said(a), 'from A');
    assert.equal(said(b), 'from B and the editor');
    assert.deepEqual(early.take('sess_9'), [chunk('early')]);
    creating();
  });

  it("holds an update whose record belongs to another agent under the sender's id", () => {
    const { router, open, early } = setup();
    const a = open('sess_1', 'agent A');
    const creating = early.beginCreate();
    router.receive({ sessionId: 'sess_1', update: chunk('not for A') }, 'agent B');
    assert.equal(said(a), '');
    assert.deepEqual(early.take('sess_1'), [chunk('not for A')]);
    creating();
  });

  it('shows the arrival hook each update first, under the editor id; a throwing hook is reported and loses nothing', () => {
    const seen: string[] = [];
    const { router, open, errors } = setup({
      aliases: { 'agent B/sess_1': 'sess_1 (2)' },
      onArrived: (n) => {
        seen.push(`${n.sessionId}:${(n.update as { content: { text: string } }).content.text}`);
        if (n.sessionId === 'sess_1 (2)') throw new Error('hook broke');
      },
    });
    const a = open('sess_1', 'agent A');
    const b = open('sess_1 (2)', 'agent B');
    router.receive({ sessionId: 'sess_1', update: chunk('one') }, 'agent A');
    router.receive({ sessionId: 'sess_1', update: chunk('two') }, 'agent B');
    router.receive({ sessionId: 'sess_1', update: chunk(' three') }, 'agent A');
    assert.equal(seen.slice(0, 2).join(','), 'sess_1:one,sess_1 (2):two');
    assert.equal(said(a), 'one three');
    assert.equal(said(b), 'two', 'a hook that throws does not lose the update');
    assert.deepEqual(errors, ['hook sess_1 (2): hook broke']);
  });
});
