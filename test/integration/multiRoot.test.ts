import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { closeAllEditors, diffTabs, inWorkspace, lastCall, waitFor, within, workspaceRoot } from './support/helpers';
import { agentSuite } from './support/agentSuite';

// Runs only in the multi-root pass of the suite (test/fixtures/multiroot/multiroot.code-workspace).
describe('multi-root workspace', function () {
  let api: AcpNativeApi;

  agentSuite({ pass: 'multi-root', settings: { 'acpNative.diff.autoOpen': 'onComplete' } }, (started) => (api = started));

  beforeEach(closeAllEditors);

  it('prefixes titles with the folder name, in whichever folder the file lies', async () => {
    await within('read in the first folder', api.prompt(`absolute-title ${inWorkspace('src/main.js', 0)}`));
    assert.equal(lastCall(api).title, 'Read app/src/main.js');
    await within('read in the second folder', api.prompt(`absolute-title ${inWorkspace('src/util.js', 1)}`));
    const call = lastCall(api);
    assert.equal(call.title, 'Read lib/src/util.js');
    assert.equal(call.tree.label, 'Read lib/src/util.js');
    assert.deepEqual(
      call.tree.children.filter((c) => c.icon === 'location').map((c) => c.label),
      ['lib/src/util.js:3'],
    );
  });

  it('names a folder added to the workspace in later titles', async () => {
    const extra = path.join(path.dirname(workspaceRoot(1)), 'extra');
    fs.mkdirSync(path.join(extra, 'src'), { recursive: true });
    fs.writeFileSync(path.join(extra, 'src', 'more.js'), 'one\ntwo\n');
    const added = new Promise<void>((resolve) => {
      const listener = vscode.workspace.onDidChangeWorkspaceFolders(() => (listener.dispose(), resolve()));
    });
    assert.ok(vscode.workspace.updateWorkspaceFolders(2, 0, { uri: vscode.Uri.file(extra), name: 'extra' }));
    try {
      await within('the folder added', added);
      await within('read in the added folder', api.prompt(`absolute-title ${path.join(extra, 'src', 'more.js')}`));
      assert.equal(lastCall(api).title, 'Read extra/src/more.js');
      assert.equal(lastCall(api).tree.label, 'Read extra/src/more.js');
    } finally {
      const removed = new Promise<void>((resolve) => {
        const listener = vscode.workspace.onDidChangeWorkspaceFolders(() => (listener.dispose(), resolve()));
      });
      if (vscode.workspace.updateWorkspaceFolders(2, 1)) await within('the folder removed', removed);
    }
  });

  it('titles diff editors with the folder-prefixed path', async () => {
    const file = inWorkspace('src/main.js', 0);
    await within('the edit turn', api.prompt(`claude-edit ${file}`));
    const tab = await waitFor('the diff tab', () => diffTabs().find((t) => lastCall(api).uris.includes(t.input.original.toString())));
    assert.equal(tab.label, 'app/src/main.js (Edit)');
    // The agent titled it relative to its cwd ("Edit src/main.js"), as Claude's adapter does.
    assert.equal(lastCall(api).agentTitle, 'Edit src/main.js');
    assert.equal(lastCall(api).title, 'Edit app/src/main.js');
    assert.equal(lastCall(api).tree.label, 'Edit app/src/main.js');
  });
});

describe('multi-root session reload', function () {
  let api: AcpNativeApi;

  agentSuite({ pass: 'multi-root', agent: { args: ['--load-session', '--additional-directories'] } }, (started) => (api = started));

  it('sends the other folders on session/load as on session/new, so a reloaded session keeps them', async () => {
    const sessionId = api.activeSessionId;
    assert.ok(sessionId);
    const others = [workspaceRoot(1)];
    const report = async (): Promise<unknown> => {
      await within('the report turn', api.prompt('session-directories'));
      return (lastCall(api).rawOutput as { result: unknown }).result;
    };
    assert.deepEqual(await report(), [{ method: 'new', directories: others }]);
    // A new agent process: what it knows of the session is what session/load told it.
    await api.stopAgent();
    await within('load', api.loadSession(sessionId));
    assert.deepEqual(await report(), [{ method: 'load', directories: others }]);
  });
});

describe('multi-root session resume', function () {
  let api: AcpNativeApi;

  agentSuite({ pass: 'multi-root', agent: { args: ['--load-session', '--resume-sessions', '--additional-directories'], name: 'multi-root-resume' } }, (started) => (api = started));

  it('sends the other folders on session/resume too, so a resumed session keeps them', async () => {
    const sessionId = api.activeSessionId;
    assert.ok(sessionId);
    const others = [workspaceRoot(1)];
    const report = async (): Promise<unknown> => {
      await within('the report turn', api.prompt('session-directories'));
      return (lastCall(api).rawOutput as { result: unknown }).result;
    };
    assert.deepEqual(await report(), [{ method: 'new', directories: others }]);
    await api.stopAgent();
    await within('resume', api.loadSession(sessionId));
    assert.deepEqual(await report(), [{ method: 'resume', directories: others }]);
  });
});
