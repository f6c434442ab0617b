import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

/**
 * Runs ACP: Session History with a query already typed and accepts what the quick pick shows
 * first, as Enter would. One accept at a time, awaited: none is left in flight to land in the
 * next pick. An accept that lands before the workbench filtered the list closes it with nothing,
 * as an Enter pressed at once would (a loaded CI machine did that): when a match is expected, the
 * pick is run once more.
 */
async function pickFromHistory(query: string, expected: 'a match' | 'nothing' = 'a match'): Promise<string | undefined> {
  const picked = await pickOnce(query);
  return picked === undefined && expected === 'a match' ? pickOnce(query) : picked;
}

async function pickOnce(query: string): Promise<string | undefined> {
  let settled = false;
  const picked = Promise.resolve(vscode.commands.executeCommand<string | undefined>('acpNative.showHistory', query)).finally(() => (settled = true));
  const deadline = Date.now() + 30_000;
  while (!settled) {
    if (Date.now() > deadline) throw new Error('the history pick never took an accept');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return picked;
}

describe('session history search', function () {
  let api: AcpNativeApi;
  agentSuite({ agent: { args: ['--load-session', '--resume-sessions', '--session-prefix', 'history-'], name: 'history-agent' } }, (started) => (api = started));

  it('finds a session by words of its conversation that are not in its title, and by its title', async () => {
    const first = api.activeSessionId;
    assert.ok(first);
    await within('a turn', api.prompt('walrus-title'));
    await within('a turn', api.prompt('hidden-narwhal-words'));
    const second = await within('another session', api.newSession());
    await within('a turn', api.prompt('seal-title'));
    const titles = (await api.sessionHistory()).map((s) => s.title);
    assert.ok(!titles.some((t) => t?.includes('narwhal')), `the words are not in a title: ${JSON.stringify(titles)}`);

    assert.equal(await pickFromHistory('NARWHAL-words'), first, 'found by its conversation');
    assert.equal(api.activeSessionId, first);
    const byTitle = await pickFromHistory('seal-title');
    assert.equal(byTitle, second, `found by its title: ${String(byTitle)} of ${JSON.stringify(await api.sessionHistory())}`);
    assert.equal(api.activeSessionId, second);
    // Nothing matches: the pick closes with nothing opened.
    assert.equal(await pickFromHistory('no-such-words-anywhere', 'nothing'), undefined);
    assert.equal(api.activeSessionId, second);
  });
});

describe('session history delete', function () {
  let api: AcpNativeApi;
  agentSuite({ agent: { args: ['--load-session', '--refuse-delete', '--session-prefix', 'keeps-'], name: 'keeping-agent' } }, (started) => (api = started));

  it('forgets the active session here and closes it even when its agent refuses session/delete, and says so', async () => {
    const doomed = api.activeSessionId;
    assert.ok(doomed);
    await within('a turn', api.prompt('doomed-walrus'));
    await assert.rejects(api.deleteSession(doomed), /gone from this workspace's history, but its agent did not delete its own copy: .*keeps its sessions/);
    assert.ok(!api.sessions().some((s) => s.sessionId === doomed), 'closed');
    assert.ok(!(await api.sessionHistory()).some((s) => s.sessionId === doomed), 'forgotten');
    // Its recorded conversation went too: opening it again asks the agent (session/load), this
    // suite's agent (an open session of it is active, so the load goes to it).
    await within('a session of this agent', api.newSession());
    await within('load', api.loadSession(doomed));
    assert.deepEqual(api.conversation(doomed), []);
  });
});

describe('session history: a session opens again with the agent it was with', function () {
  let api: AcpNativeApi;
  agentSuite({ agent: { args: ['--load-session', '--resume-sessions', '--session-prefix', 'own-agent-'], name: 'own-agent' } }, (started) => (api = started));

  it("loads a closed session with its own agent while another agent's session is active", async () => {
    const closed = api.activeSessionId;
    assert.ok(closed);
    await within('a turn', api.prompt('own-agent-walrus'));
    await api.closeSession(closed);
    const other = await within('a bundled session', api.newSession('bundled'));
    assert.equal(api.sessions().find((s) => s.sessionId === other)?.agent, 'bundled');

    await within('load', api.loadSession(closed));
    assert.equal(api.activeSessionId, closed);
    assert.equal(api.sessions().find((s) => s.sessionId === closed)?.agent, 'own-agent', 'loaded by the agent it was with, not the active one');
    assert.ok(
      api.conversation(closed).some((m) => m.role === 'user' && m.text.includes('own-agent-walrus')),
      `its conversation came back: ${JSON.stringify(api.conversation(closed))}`,
    );
  });
});
