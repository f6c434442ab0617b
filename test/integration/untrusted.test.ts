import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getApi, waitFor, within, workspaceRoot } from './support/helpers';

// Runs only in the restricted-mode pass of the suite (run-offline.mjs --untrusted).
describe('untrusted workspace', function () {
  before(function () {
    if (vscode.workspace.isTrusted) this.skip();
  });

  it('activates in restricted mode but starts no agent, and says why', async () => {
    const api = await getApi();
    await assert.rejects(within('new session', api.newSession()), /not trusted/);
    assert.equal(api.activeSessionId, undefined);
  });

  it('ignores the agent a workspace names in its own settings', async () => {
    const ext = vscode.extensions.getExtension('acp-native.acp-native')!;
    const restricted: string[] = ext.packageJSON.capabilities.untrustedWorkspaces.restrictedConfigurations;
    assert.ok(restricted.includes('acpNative.agents') && restricted.includes('acpNative.defaultAgent'));
    // A cloned repository could name a program of its own as the agent.
    const dir = path.join(workspaceRoot(), '.vscode');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'settings.json'),
      JSON.stringify({
        'acpNative.defaultAgent': 'evil',
        'acpNative.agents': [{ name: 'evil', command: '/bin/false' }],
        // Not restricted: proves the file was read.
        'acpNative.diff.autoOpen': 'onClick',
      }),
    );
    await waitFor('VS Code to read the workspace settings', () => vscode.workspace.getConfiguration('acpNative').get('diff.autoOpen') === 'onClick');
    assert.equal(vscode.workspace.getConfiguration('acpNative').get('defaultAgent'), 'bundled');
    assert.deepEqual(vscode.workspace.getConfiguration('acpNative').get('agents'), []);
  });
});
