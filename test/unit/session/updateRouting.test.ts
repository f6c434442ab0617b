import * as assert from 'node:assert/strict';
import type { SessionUpdate } from '@agentclientprotocol/sdk';
import { EarlyUpdates } from '../../../src/extension/session/model/earlyUpdates';
import { KeyedSerialQueue } from '../../../src/extension/base/serialQueue';
import { SessionState } from '../../../src/extension/session/model/sessionState';
import { UpdateRouter, type RoutedSession } from '../../../src/extension/session/model/updateRouting';
import type { MessageEntry } from '../../../src/extension/session/model/transcript';

type Agent = 'agent A' | 'agent B';

const chunk = (text: string): SessionUpdate => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
const said = (state: SessionState) => state.transcript.map((e) => (e as MessageEntry).text).join('|');

function setup(options: { aliases?: Record<string, string> } = {}) {
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
    onError: (sessionId, error) => errors.push(`${sessionId}: ${(error as Error).message}`),
  });
  const open = (id: string, connection: Agent) => {
    const state = new SessionState({ sessionId: id, cwd: '/p', schedule: () => undefined });
    sessions.set(id, { state, connection });
    return state;
  };
  return { queue, router, early, errors, logged, open, sessions };
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

  it("applies a tool call at once on arrival, the store's hook inside that very call, also after the session's queue was waited on", async () => {
    const { router, queue, sessions } = setup();
    const applied: string[] = [];
    const state = new SessionState({ sessionId: 'sess_1', cwd: '/p', schedule: () => undefined, onToolCallApplied: (a) => applied.push(`${a.call.id} ${a.call.status}`) });
    sessions.set('sess_1', { state, connection: 'agent A' });
    // No await in between: the agent may write the file the call names right after sending it.
    router.receive({ sessionId: 'sess_1', update: { sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'Edit', kind: 'edit', status: 'in_progress' } }, 'agent A');
    assert.deepEqual(applied, ['c1 in_progress']);
    // A turn's end waits for the queue (AgentSessions.promptOnce); that leaves nothing queued behind it.
    await queue.run('sess_1', () => undefined);
    router.receive({ sessionId: 'sess_1', update: { sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed' } }, 'agent A');
    assert.deepEqual(applied, ['c1 in_progress', 'c1 completed']);
  });

  it('reports an update that failed to apply and goes on with the next', () => {
    const { router, open, errors } = setup();
    const a = open('sess_1', 'agent A');
    router.receive({ sessionId: 'sess_1', update: chunk('one') }, 'agent A');
    const broken = new Error('apply broke');
    const apply = a.apply.bind(a);
    a.apply = () => {
      throw broken;
    };
    router.receive({ sessionId: 'sess_1', update: chunk('two') }, 'agent A');
    a.apply = apply;
    router.receive({ sessionId: 'sess_1', update: chunk(' three') }, 'agent A');
    assert.equal(said(a), 'one three');
    assert.deepEqual(errors, ['sess_1: apply broke']);
  });
});
