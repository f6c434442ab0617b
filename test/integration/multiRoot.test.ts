import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api';
import { closeAllEditors, diffTabs, getApi, startTestAgent, inWorkspace, lastCall, setSetting, waitFor, within } from './support/helpers';

// Runs only in the multi-root pass of the suite (test/fixtures/multiroot/multiroot.code-workspace).
describe('multi-root workspace', function () {
  let api: AcpNativeApi;

  before(async function () {
    if ((vscode.workspace.workspaceFolders?.length ?? 0) < 2) this.skip();
    api = await getApi();
    await startTestAgent(api);
    await setSetting('acpNative.diff.autoOpen', 'onComplete');
    await within('new session', api.newSession());
  });

  after(async () => {
    await api?.stopAgent();
  });

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
