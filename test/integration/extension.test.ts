import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, getApi, waitFor } from './support/helpers';

describe('extension host', () => {
  it('runs in a real VS Code and activates with its API', async () => {
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    const api = await getApi();
    assert.equal(typeof api.prompt, 'function');
    assert.equal(typeof api.toolCalls, 'function');
    assert.ok(vscode.extensions.getExtension(EXTENSION_ID)?.isActive);
  });

  it('registers every command that package.json contributes', async () => {
    await getApi();
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const contributed: { command: string }[] = ext.packageJSON.contributes.commands;
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((c) => !registered.has(c));
    assert.deepEqual(missing, []);
  });

  it('shows the Tool Calls view, rendered by the extension, in the ACP container', async () => {
    const api = await getApi();
    await vscode.commands.executeCommand('workbench.action.closeSidebar');
    await waitFor('the view to be hidden', () => !api.stats().toolCallsViewVisible);
    // Opening the container shows the view the extension's tree provider renders.
    await vscode.commands.executeCommand('workbench.view.extension.acpNative');
    await waitFor('the Tool Calls view on screen', () => api.stats().toolCallsViewVisible);
  });
});
