import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getApi, isMultiRoot, lastCall, testAgentPath, useBundledAgent, waitFor, within, workspaceRoot } from './support/helpers';

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

// The main pass: a trusted workspace names its agent as it may name its tasks.
describe('trusted workspace settings', function () {
  const settingsFile = () => path.join(workspaceRoot(), '.vscode', 'settings.json');
  let previous: string | undefined;

  before(function () {
    if (!vscode.workspace.isTrusted || isMultiRoot()) this.skip();
  });

  after(async function () {
    if (!vscode.workspace.isTrusted || isMultiRoot()) return;
    if (previous === undefined) fs.rmSync(settingsFile(), { force: true });
    else fs.writeFileSync(settingsFile(), previous);
    await waitFor('the workspace settings gone', () => vscode.workspace.getConfiguration('acpNative').inspect('defaultAgent')?.workspaceValue === undefined);
    await (await getApi()).stopAgent();
  });

  it("starts the agent a trusted workspace names in .vscode/settings.json, with the workspace's auto-approval", async () => {
    const api = await getApi();
    // The user's settings name the bundled agent: the workspace's choice wins, as for any window setting.
    await useBundledAgent(api, { autoApprove: 'everything' });
    fs.mkdirSync(path.dirname(settingsFile()), { recursive: true });
    previous = fs.existsSync(settingsFile()) ? fs.readFileSync(settingsFile(), 'utf8') : undefined;
    fs.writeFileSync(
      settingsFile(),
      JSON.stringify({
        'acpNative.agents': [{ name: 'repo-agent', command: process.execPath, args: [testAgentPath('thirdPartyAgent')], env: { ELECTRON_RUN_AS_NODE: '1' } }],
        'acpNative.defaultAgent': 'repo-agent',
        'acpNative.permissions.autoApprove': 'reads',
      }),
    );
    const config = () => vscode.workspace.getConfiguration('acpNative');
    await waitFor('VS Code to read the workspace settings', () => config().get('defaultAgent') === 'repo-agent');
    assert.equal(config().get('permissions.autoApprove'), 'reads');
    await within('a session with the workspace agent', api.newSession());
    const file = path.join(workspaceRoot(), 'src', 'math.js');
    await within('a turn', api.prompt(`absolute-title ${file}`));
    // The third-party test agent answers this scenario with a Read card.
    assert.equal(lastCall(api).title, 'Read src/math.js');
  });
});
