import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { getApi, inWorkspace, setSetting } from './support/helpers';

// Runs only in the restricted-mode pass of the suite (run-offline.mjs --untrusted). Agents are not
// started there at all; what a session would get is what ACP: Show MCP Servers lists.
describe('untrusted workspace: MCP servers', function () {
  before(function () {
    if (vscode.workspace.isTrusted) this.skip();
  });

  after(async () => {
    if (vscode.workspace.isTrusted) return;
    await setSetting('acpNative.mcpServers', undefined);
    fs.rmSync(inWorkspace('.vscode/mcp.json'), { force: true });
  });

  it("passes none of the workspace's own servers, only the user's", async () => {
    await getApi();
    fs.mkdirSync(inWorkspace('.vscode'), { recursive: true });
    fs.writeFileSync(inWorkspace('.vscode/mcp.json'), JSON.stringify({ servers: { 'from-repo': { command: '/bin/false' } } }));
    await setSetting('acpNative.mcpServers', [{ name: 'mine', command: 'my-tool' }]);
    const shown = (await vscode.commands.executeCommand('acpNative.showMcpServers')) as { servers: { name: string }[]; skipped: unknown[] };
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    assert.deepEqual(shown.servers.map((s) => s.name), ['mine']);
    assert.deepEqual(shown.skipped, []);
  });
});
