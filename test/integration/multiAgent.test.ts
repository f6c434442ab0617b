import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi, OpenSessionInfo } from '../../src/extension/api/api';
import { getApi, isMultiRoot, setSetting, testAgentEntry, waitFor, within } from './support/helpers';

/**
 * Two instances of the third-party test agent under two names. Both count their sessions
 * `sess_1`, `sess_2`…: the editor must tell them apart all the same.
 */
const AGENT_A = 'agent-a';
const AGENT_B = 'agent-b';
/** The same test agent advertising `sessionCapabilities.close`. */
const AGENT_C = 'agent-c';

const testAgent = (name: string, ...flags: string[]) => testAgentEntry({ name, file: 'thirdPartyAgent', args: flags });

/** The agent's own id of an editor session id (a clash with another agent's id adds `~N`). */
const agentSideId = (sessionId: string) => sessionId.replace(/~\d+$/, '');

/** Which way a promise went, without waiting for it. */
function track<T>(promise: Promise<T>): { settled: boolean; value?: T; error?: unknown; done: Promise<void> } {
  const state: { settled: boolean; value?: T; error?: unknown; done: Promise<void> } = { settled: false, done: Promise.resolve() };
  state.done = promise.then(
    (value) => {
      state.settled = true;
      state.value = value;
    },
    (error: unknown) => {
      state.settled = true;
      state.error = error;
    },
  );
  return state;
}

describe('several sessions of several agents at once', function () {
  let api: AcpNativeApi;
  const info = (sessionId: string): OpenSessionInfo | undefined => api.sessions().find((s) => s.sessionId === sessionId);

  before(async function () {
    if (isMultiRoot()) this.skip();
    api = await getApi();
    await api.stopAgent();
    await setSetting('acpNative.agents', [testAgent(AGENT_A), testAgent(AGENT_B), testAgent(AGENT_C, '--close-sessions')]);
    await setSetting('acpNative.defaultAgent', 'bundled');
    await setSetting('acpNative.permissions.autoApprove', 'reads');
  });

  afterEach(async () => {
    await api.stopAgent();
    await vscode.commands.executeCommand('acpNative.clearToolCalls');
  });

  after(async () => {
    await setSetting('acpNative.agents', undefined);
    await setSetting('acpNative.defaultAgent', undefined);
    await setSetting('acpNative.permissions.autoApprove', undefined);
  });

  it('runs a turn of the bundled agent while another agent is in a turn, each in its own session', async () => {
    const a = await within('agent A session', api.newSession(AGENT_A));
    const bundled = await within('bundled session', api.newSession('bundled'));
    assert.deepEqual(api.runningAgents().sort(), [AGENT_A, 'bundled'].sort(), 'starting the second agent stopped none');
    assert.equal(api.activeSessionId, bundled);

    const waiting = track(api.prompt('wait-cancel', a));
    await waitFor('A busy', () => info(a)?.busy);
    // The bundled agent answers while A's turn is still running.
    const stop = await within('the bundled turn', api.prompt('/read src/greet.ts', bundled));
    assert.equal(stop, 'end_turn');
    assert.equal(api.toolCalls().at(-1)?.kind, 'read', 'the read landed in the bundled session, which is active');
    assert.equal(info(a)?.busy, true, "A's turn still runs");
    assert.equal(waiting.settled, false);
    assert.deepEqual(
      api.sessions().filter((s) => s.sessionId === a || s.sessionId === bundled).map((s) => [s.agent, s.activity]),
      [
        [AGENT_A, 'working'],
        ['bundled', 'idle'],
      ],
    );
    // Nothing of the bundled turn reached A's session.
    api.setActiveSession(a);
    assert.deepEqual(api.toolCalls().map((c) => c.title), ['Wait for cancel']);
    await api.cancel(a);
    await within("A's cancelled turn", waiting.done);
    assert.equal(waiting.value, 'cancelled');
  });

  it('cancels only the session it names, through that session\'s agent', async () => {
    const a = await within('agent A session', api.newSession(AGENT_A));
    const b = await within('agent B session', api.newSession(AGENT_B));
    const turnA = track(api.prompt('wait-cancel', a));
    const turnB = track(api.prompt('wait-cancel', b));
    await waitFor('both busy', () => info(a)?.busy && info(b)?.busy);
    // The active session is B; cancelling A names A.
    assert.equal(api.activeSessionId, b);
    await api.cancel(a);
    await within("A's turn", turnA.done);
    assert.equal(turnA.value, 'cancelled');
    // B's agent never heard a cancel: its turn runs on.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(turnB.settled, false, "B's turn was not cancelled");
    assert.equal(info(b)?.busy, true);
    await api.cancel();
    await within("B's turn", turnB.done);
    assert.equal(turnB.value, 'cancelled');
  });

  it('routes each permission question to its own session and its answer to its own agent, though both agents use the same session id', async () => {
    const a = await within('agent A session', api.newSession(AGENT_A));
    const b = await within('agent B session', api.newSession(AGENT_B));
    // Each agent calls its session sess_1; the editor knows B's by a suffixed id.
    assert.equal(a, 'sess_1');
    assert.equal(b, 'sess_1~2');
    const turnA = track(api.prompt('ask-permission Deploy-A', a));
    const turnB = track(api.prompt('ask-permission Deploy-B', b));
    const questions = await waitFor('two questions', () => (api.pendingPermissions().length === 2 ? api.pendingPermissions() : undefined));
    const ofA = questions.find((q) => q.sessionId === a);
    const ofB = questions.find((q) => q.sessionId === b);
    assert.equal(ofA?.title, 'Deploy-A');
    assert.equal(ofB?.title, 'Deploy-B');
    assert.equal(info(a)?.activity, 'waiting');
    assert.equal(info(b)?.activity, 'waiting');
    // Answer B's question while A is... not even active: the answer goes to B's agent only.
    api.setActiveSession(a);
    assert.ok(ofB && api.answerPermission(ofB.id, 'reject_once'));
    await within("B's turn", turnB.done);
    assert.equal(turnA.settled, false, "A's question is still open");
    assert.equal(info(a)?.activity, 'waiting');
    assert.ok(ofA && api.answerPermission(ofA.id, 'allow_once'));
    await within("A's turn", turnA.done);
    // What each agent reported of its own question (the active session's calls).
    const reported = () => api.toolCalls().find((c) => c.rawOutput !== undefined)?.rawOutput;
    assert.deepEqual(reported(), { ok: true, result: { outcome: 'selected', optionId: 'yes' } });
    api.setActiveSession(b);
    assert.deepEqual(reported(), { ok: true, result: { outcome: 'selected', optionId: 'no' } });
  });

  it('keeps the other agent\'s session working when one agent crashes', async () => {
    const a = await within('agent A session', api.newSession(AGENT_A));
    const b = await within('agent B session', api.newSession(AGENT_B));
    const turnA = track(api.prompt('wait-cancel', a));
    await waitFor('A busy', () => info(a)?.busy);
    await assert.rejects(within('the crashing turn', api.prompt('crash', b)), /agent-b.*exited with code 7|exited with code 7/);
    await waitFor('B gone', () => !api.runningAgents().includes(AGENT_B));
    assert.deepEqual(api.runningAgents(), [AGENT_A]);
    assert.equal(info(b)?.agentRunning, false);
    // A's turn never noticed; it still answers its cancel and takes the next prompt.
    assert.equal(turnA.settled, false);
    assert.equal(info(a)?.busy, true);
    await api.cancel(a);
    await within("A's turn", turnA.done);
    assert.equal(turnA.value, 'cancelled');
    assert.equal(await within('a new turn in A', api.prompt('no-such-scenario', a)), 'end_turn');
    // B can be started again beside A.
    const b2 = await within('a new B session', api.newSession(AGENT_B));
    // A fresh process numbers its sessions afresh: the new session takes the dead one's place.
    assert.equal(info(b2)?.agentRunning, true);
    assert.equal(api.sessions().filter((s) => s.sessionId === b2).length, 1);
    assert.deepEqual(api.runningAgents().sort(), [AGENT_A, AGENT_B]);
  });

  it('closes a session without stopping its agent or touching the other sessions', async () => {
    const a = await within('agent A session', api.newSession(AGENT_A));
    const b = await within('agent B session', api.newSession(AGENT_B));
    const turnB = track(api.prompt('ask-permission Close-me', b));
    await waitFor('B asks', () => api.pendingPermissions().some((q) => q.sessionId === b));
    await vscode.commands.executeCommand('acpNative.closeSession', b);
    await within("B's turn", turnB.done);
    assert.equal(info(b), undefined, 'B is closed');
    assert.equal(api.pendingPermissions().some((q) => q.sessionId === b), false, "B's question was answered (cancelled)");
    assert.deepEqual(api.runningAgents().sort(), [AGENT_A, AGENT_B]);
    assert.equal(api.activeSessionId, a, 'the newest remaining session is shown');
  });

  it('limits restarts per agent: an agent restarted too often does not block restarting another', async () => {
    await within('agent B session', api.newSession(AGENT_B));
    const a = await within('agent A session', api.newSession(AGENT_A));
    api.setActiveSession(a);
    for (let i = 0; i < 3; i++) await within(`restart ${i + 1} of agent A`, api.restartAgent());
    await assert.rejects(api.restartAgent(), /agent-a.*restarted too often/);
    const b = api.sessions().find((s) => s.agent === AGENT_B)?.sessionId;
    assert.ok(b, "agent B's session is still open");
    api.setActiveSession(b);
    const restarted = await within('restart of agent B', api.restartAgent());
    assert.equal(api.sessions().find((s) => s.sessionId === restarted)?.agent, AGENT_B);
  });

  it('sends session/close to an agent that can close sessions, and to no other', async () => {
    /** What the agent of `sessionId` says it was asked to close (its `closed-sessions` scenario). */
    const closedBy = async (sessionId: string): Promise<unknown> => {
      api.setActiveSession(sessionId);
      await within('the report turn', api.prompt('closed-sessions', sessionId));
      const report = await waitFor('the report', () => api.toolCalls().find((c) => c.title === 'Closed sessions' && c.status === 'completed'));
      return (report.rawOutput as { result: unknown }).result;
    };
    const c1 = await within('agent C session 1', api.newSession(AGENT_C));
    const c2 = await within('agent C session 2', api.newSession(AGENT_C));
    await vscode.commands.executeCommand('acpNative.closeSession', c2);
    assert.equal(info(c2), undefined);
    assert.deepEqual(await closedBy(c1), [agentSideId(c2)], 'agent C freed its session');

    const b1 = await within('agent B session 1', api.newSession(AGENT_B));
    const b2 = await within('agent B session 2', api.newSession(AGENT_B));
    await vscode.commands.executeCommand('acpNative.closeSession', b2);
    assert.equal(info(b2), undefined);
    assert.deepEqual(await closedBy(b1), [], 'agent B does not advertise session/close: it is not sent');
  });
});
