import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { CALLS_PER_GROUP } from '../../src/extension/cards/tree/model/treeModel';
import { closeAllEditors, diffTabs, fence, inWorkspace, lastCall, readFile, setSetting, waitFor, within, workspaceRoot } from './support/helpers';
import { agentSuite } from './support/agentSuite';

describe('bundled agent rendered natively', function () {
  let api: AcpNativeApi;

  agentSuite({ agent: 'bundled' }, (started) => (api = started));

  beforeEach(closeAllEditors);

  it('/edit opens a diff editor whose left side holds the old text, titled relative to the workspace', async () => {
    const file = inWorkspace('src/greet.ts');
    const stop = await within('the /edit turn', api.prompt(`/edit src/greet.ts\n${fence('Hello, ${name}!')}\n${fence('Hi there, ${name}!')}`));
    assert.equal(stop, 'end_turn');
    assert.match(readFile(file), /Hi there, \$\{name\}!/);
    const call = lastCall(api);
    assert.equal(call.card, 'diff');
    assert.equal(call.status, 'completed');
    assert.match(call.title, /src\/greet\.ts/);
    assert.ok(!call.title.includes(workspaceRoot()), `title should be relative: ${call.title}`);
    const tab = await waitFor('a diff tab for the edit', () => diffTabs().find((t) => lastCall(api).uris.includes(t.input.original.toString())));
    assert.match(tab.label, /^src\/greet\.ts \(/);
    const original = await vscode.workspace.openTextDocument(tab.input.original);
    const modified = await vscode.workspace.openTextDocument(tab.input.modified);
    assert.match(original.getText(), /Hello, \$\{name\}!/);
    assert.doesNotMatch(original.getText(), /Hi there/);
    assert.match(modified.getText(), /Hi there, \$\{name\}!/);
    // Applied hunks keep context lines around the change, not just the bare snippet.
    assert.match(original.getText(), /export function greet/);
  });

  it('/write of a new file opens a diff whose left side is empty and whose right side is the real file', async () => {
    const stop = await within('the /write turn', api.prompt(`/write notes/todo.md\n${fence('# Todo\n\n- ship it')}`));
    assert.equal(stop, 'end_turn');
    const call = lastCall(api);
    assert.equal(call.card, 'diff');
    const tab = await waitFor('a diff tab for the write', () => diffTabs().find((t) => lastCall(api).uris.includes(t.input.original.toString())));
    const original = await vscode.workspace.openTextDocument(tab.input.original);
    assert.equal(original.getText(), '');
    assert.equal(tab.input.modified.scheme, 'file');
    assert.equal(tab.input.modified.fsPath, inWorkspace('notes/todo.md'));
    assert.match(tab.label, /notes\/todo\.md \(New File/);
  });

  it('with diff.autoOpen set to onClick, opens the diff only when the card is clicked', async () => {
    await setSetting('acpNative.diff.autoOpen', 'onClick');
    try {
      const stop = await within('the /write turn', api.prompt(`/write notes/quiet.md\n${fence('quiet')}`));
      assert.equal(stop, 'end_turn');
      const call = lastCall(api);
      // Auto-opens run one after the other in the order the edits completed: once a later edit's
      // diff has opened by itself, the quiet one would have opened before it.
      await setSetting('acpNative.diff.autoOpen', 'onComplete');
      await within('the second /write turn', api.prompt(`/write notes/loud.md\n${fence('loud')}`));
      await waitFor('the later edit to open by itself', () => diffTabs().find((t) => t.label.startsWith('notes/loud.md')));
      assert.deepEqual(
        diffTabs().map((t) => t.label).filter((label) => label.startsWith('notes/quiet.md')),
        [],
        'the onClick edit did not open by itself',
      );
      assert.ok(call.tree.command, 'the tree item opens the card');
      await vscode.commands.executeCommand(call.tree.command.command, ...call.tree.command.arguments);
      await waitFor('the diff tab after the click', () => diffTabs().find((t) => t.label.startsWith('notes/quiet.md')));
    } finally {
      await setSetting('acpNative.diff.autoOpen', 'onComplete');
    }
  });

  it('/run shows the command output and exit code in a terminal', async () => {
    const stop = await within('the /run turn', api.prompt('/run echo hello from run && echo second line && exit 3'));
    assert.equal(stop, 'end_turn');
    const call = lastCall(api);
    assert.equal(call.card, 'terminal');
    assert.equal(call.status, 'failed');
    const terminal = await waitFor('terminal output and exit', () => {
      const t = lastCall(api).terminal;
      return t?.exit && t.output.includes('exit code 3') ? t : undefined;
    });
    // The header was written before VS Code opened the terminal: buffered, then delivered first.
    assert.ok(terminal.output.startsWith('\x1b[2mcwd: '), `starts with the header: ${JSON.stringify(terminal.output.slice(0, 40))}`);
    assert.match(terminal.output, /hello from run\r\nsecond line\r\n/);
    assert.equal(terminal.exit?.exitCode, 3);
    assert.ok(vscode.window.terminals.some((t) => t.name === terminal.name), `a terminal panel named ${terminal.name}`);
  });

  it('/read shows a tree item with a relative label and a location child that opens the file at the line', async () => {
    const stop = await within('the /read turn', api.prompt('/read src/math.js 5'));
    assert.equal(stop, 'end_turn');
    const call = lastCall(api);
    assert.equal(call.card, 'generic');
    assert.equal(call.kind, 'read');
    assert.match(call.tree.label, /src\/math\.js/);
    assert.ok(!call.tree.label.includes(workspaceRoot()));
    const location = call.tree.children.find((c) => c.icon === 'location');
    assert.ok(location?.command, 'a location child with a command');
    assert.equal(location.label, 'src/math.js:5');
    await vscode.commands.executeCommand(location.command.command, ...location.command.arguments);
    const editor = await waitFor('the file opened', () =>
      vscode.window.activeTextEditor?.document.uri.fsPath === inWorkspace('src/math.js') ? vscode.window.activeTextEditor : undefined,
    );
    assert.equal(editor.selection.active.line, 4);
  });

  it('/demo renders every card kind natively: diffs, terminals, generic cards, one hunk per replace_all site', async function () {
    this.timeout(90_000);
    const before = api.toolCalls().length;
    const stop = await within('the /demo turn', api.prompt('/demo'), 60_000);
    assert.equal(stop, 'end_turn');
    const calls = api.toolCalls().slice(before);
    const cards = new Set(calls.map((c) => c.card));
    assert.deepEqual([...cards].sort(), ['diff', 'generic', 'terminal']);
    for (const call of calls) assert.ok(!call.title.includes(workspaceRoot()), `relative title: ${call.title}`);
    // The replace_all edit: one hunk per site, all put back in place in one diff editor.
    const edit = await waitFor('the replace_all edit to open', () =>
      api.toolCalls().slice(before).find((c) => c.card === 'diff' && /tour\.js/.test(c.title) && /^Edit/.test(c.title) && c.uris.length === 2),
    );
    const tab = await waitFor('its diff editor', () => diffTabs().find((t) => t.input.original.toString() === edit.uris[0]));
    assert.equal(tab.label, 'src/tour.js (Edit)');
    const beforeEdit = (await vscode.workspace.openTextDocument(tab.input.original)).getText();
    const afterEdit = (await vscode.workspace.openTextDocument(tab.input.modified)).getText();
    assert.equal(beforeEdit.match(/TODO/g)?.length, 3);
    assert.equal(afterEdit.match(/DONE/g)?.length, 3);
    assert.equal(beforeEdit.replace(/TODO/g, 'DONE'), afterEdit, 'the same file but for the three sites');
    const failing = calls.find((c) => c.card === 'terminal' && c.status === 'failed');
    const output = await waitFor('the failing command in its terminal', () => {
      const t = api.toolCalls().find((c) => c.id === failing?.id)?.terminal;
      return t?.output.includes('exit code 3') ? t.output : undefined;
    });
    assert.match(output, /checking something/);
  });

  it('the visible Tool Calls view gets a new call without rebuilding the calls it already shows', async () => {
    await vscode.commands.executeCommand('acpNative.toolCalls.focus');
    await waitFor('the Tool Calls view on screen', () => api.stats().toolCallsViewVisible);
    for (const line of [1, 2, 3]) await within('a /read turn', api.prompt(`/read src/math.js ${line}`));
    // A longer session lists only its newest calls under it, the older ones folded into groups.
    const shown = Math.min(api.toolCalls().length, CALLS_PER_GROUP);
    const before = api.stats().treeItems;
    await within('another /read turn', api.prompt('/read src/math.js 4'));
    // The session's node is refreshed, not the root: VS Code asks for its calls again, the new one included.
    const after = await waitFor('VS Code to ask for the session\'s calls again', () => {
      const items = api.stats().treeItems;
      return items.served - before.served > shown ? items : undefined;
    });
    const reused = after.served - before.served - (after.built - before.built);
    assert.ok(reused >= shown, `the ${shown} calls shown before come from the cache (reused ${reused}, built ${after.built - before.built})`);
  });

  it('a click on a card that has nothing to open shows it in the Tool Calls view', async () => {
    await within('a /read turn', api.prompt('/read src/math.js 1 2'));
    const read = lastCall(api);
    assert.equal(read.card, 'generic');
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitFor('the view to be hidden', () => !api.stats().toolCallsViewVisible);
    await vscode.commands.executeCommand('acpNative.openToolCall', api.activeSessionId, read.id);
    await waitFor('the Tool Calls view to show the card', () => api.stats().toolCallsViewVisible);
  });

  it('turning follow-along on shows the file and line the agent is at', async () => {
    await within('a /read turn', api.prompt('/read src/math.js 5'));
    await closeAllEditors();
    await setSetting('acpNative.followAlong', true);
    try {
      const editor = await waitFor('the file the agent read, on screen', () =>
        vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === inWorkspace('src/math.js')),
      );
      assert.equal(editor.selection.active.line, 4);
    } finally {
      await setSetting('acpNative.followAlong', false);
    }
  });

  it('forgets what renderers kept for sessions when they are cleared', async () => {
    await setSetting('acpNative.followAlong', true);
    try {
      await within('an edit turn', api.prompt(`/write notes/kept.md\n${fence('kept')}`));
      await within('a command turn', api.prompt('/run echo kept'));
      await within('a read turn', api.prompt('/read src/math.js 2'));
      const kept = await waitFor('the renderers to keep their bookkeeping', () => {
        const k = api.stats().kept;
        return k.diffCards > 0 && k.terminalSessions > 0 && k.followAlongSessions > 0 ? k : undefined;
      });
      assert.ok(kept.diffCards >= 1);
      await vscode.commands.executeCommand('acpNative.clearToolCalls');
      assert.deepEqual(api.stats().kept, { diffCards: 0, terminalSessions: 0, followAlongSessions: 0, diffBeforeChars: 0 });
      assert.deepEqual(api.toolCalls(), []);
    } finally {
      await setSetting('acpNative.followAlong', false);
    }
  });

  it('restarts into the same session, its cards back, when the agent can load sessions', async () => {
    await within('a /read turn', api.prompt('/read src/math.js 1 2'));
    const sessionId = api.activeSessionId;
    const read = lastCall(api);
    assert.equal(await within('restart', api.restartAgent()), sessionId);
    const back = await waitFor('the replayed card', () => api.toolCalls().find((c) => c.id === read.id));
    assert.equal(back.title, read.title);
    assert.equal(back.status, 'completed');
    assert.equal(await within('a turn after the restart', api.prompt('/read src/math.js 1 1')), 'end_turn');
  });
});
