import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { closeAllEditors, diffTabs, fence, waitFor, within } from './support/helpers';
import { agentSuite } from './support/agentSuite';

describe('chat: session history and load', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: 'bundled', settings: { 'acpNative.diff.autoOpen': 'onClick' }, session: false }, (started) => (api = started));

  it('lists a finished session, loads it after an agent restart with its cards back, and reopens its diff', async () => {
    const sessionId = await within('new session', api.newSession());
    // A file of its own: other suites change the fixture's files.
    const file = 'notes/chat-history.md';
    await within(
      'a turn',
      api.prompt(`/read src/math.js 1 2\n/write ${file}\n${fence('Hello, chat!')}\n/edit ${file}\n${fence('Hello, chat!')}\n${fence('Hello again, chat!')}`),
    );
    const before = api.toolCalls().map((c) => [c.kind, c.card, c.status]);
    assert.deepEqual(before, [['read', 'generic', 'completed'], ['edit', 'diff', 'completed'], ['edit', 'diff', 'completed']]);

    await api.stopAgent();
    const history = await within('history', api.sessionHistory());
    const listed = history.find((s) => s.sessionId === sessionId);
    assert.ok(listed, `the session is in the history: ${JSON.stringify(history)}`);
    assert.match(listed.title ?? '', /\/read src\/math\.js/);

    await within('load', api.loadSession(sessionId));
    assert.equal(api.activeSessionId, sessionId);
    const after = await waitFor('the replayed cards', () => (api.toolCalls().length === 3 ? api.toolCalls() : undefined));
    assert.deepEqual(after.map((c) => [c.kind, c.card, c.status]), before);

    await closeAllEditors();
    const edit = after[2];
    assert.ok(edit);
    await vscode.commands.executeCommand('acpNative.openToolCall', sessionId, edit.id);
    const tab = await waitFor('the reopened diff', () => diffTabs()[0]);
    const original = await vscode.workspace.openTextDocument(tab.input.original);
    const modified = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.match(original.getText(), /Hello, chat!/);
    assert.match(modified.getText(), /Hello again, chat!/);

    // The same conversation goes on in the loaded session.
    const stop = await within('a turn in the loaded session', api.prompt('/read src/greet.ts'));
    assert.equal(stop, 'end_turn');
    assert.equal(api.toolCalls().length, 4);
  });
});
