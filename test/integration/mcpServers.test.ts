import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import type { AcpNativeApi } from '../../src/extension/api/api';
import { getApi, inWorkspace, isMultiRoot, lastCall, setSetting, startTestAgent, testAgentPath, useBundledAgent, waitFor, within, workspaceRoot } from './support/helpers';

interface ShowMcpResult {
  agentName: string | undefined;
  servers: { name: string; transport: string; keys: string[] }[];
  skipped: { name: string; source: string; reason: string }[];
}

/**
 * The servers of `.vscode/mcp.json` and `acpNative.mcpServers`, resolved and sent on `session/new`
 * to a test agent that records what it receives, and to the bundled agent, which starts and calls
 * the workspace's real MCP server.
 */
describe('MCP servers passed to agents', function () {
  let api: AcpNativeApi;
  let root: string;
  const asked: vscode.InputBoxOptions[] = [];
  const window = vscode.window as { showInputBox: typeof vscode.window.showInputBox };
  const realShowInputBox = window.showInputBox;
  const mcpJson = (): string => inWorkspace('.vscode/mcp.json');

  before(async function () {
    if (isMultiRoot()) this.skip();
    api = await getApi();
    root = workspaceRoot();
    // A real MCP server inside the workspace, named through ${workspaceFolder}.
    fs.mkdirSync(inWorkspace('.mcp'), { recursive: true });
    fs.copyFileSync(testAgentPath('mcpStdioServer'), inWorkspace('.mcp/server.js'));
    fs.mkdirSync(inWorkspace('.vscode'), { recursive: true });
    fs.writeFileSync(
      mcpJson(),
      `{
  // VS Code's own format: comments and trailing commas are fine.
  "inputs": [{ "type": "promptString", "id": "token", "description": "Token for the files server", "password": true }],
  "servers": {
    "files": {
      "type": "stdio",
      "command": ${JSON.stringify(process.execPath)},
      "args": ["\${workspaceFolder}/.mcp/server.js", "files"],
      "env": { "ELECTRON_RUN_AS_NODE": "1", "TEST_MCP_VAR": "\${input:token}", "HOME_DIR": "\${userHome}" },
    },
    "remote": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "X-Test": "\${env:ACP_TEST_MCP_HEADER}" } },
  },
}
`,
    );
    process.env.ACP_TEST_MCP_HEADER = 'header from env';
    await setSetting('acpNative.mcpServers', [
      { name: 'from-setting', command: 'mcp-setting-tool', args: ['--root', '${workspaceFolder}'], env: { MODE: 'test' } },
      { name: 'setting-sse', type: 'sse', url: 'http://127.0.0.1:9/sse' },
    ]);
    // VS Code's own user setting (its built-in example, shown when nothing is set, must never be sent).
    await setSetting('mcp.servers', { 'from-user': { type: 'stdio', command: '${userHome}/bin/user-tool', args: [] } });
    // The `${input:token}` question, answered as a user would.
    window.showInputBox = async (options?: vscode.InputBoxOptions) => {
      asked.push(options ?? {});
      return 'token-answer';
    };
  });

  after(async () => {
    if (isMultiRoot()) return;
    window.showInputBox = realShowInputBox;
    await api?.stopAgent();
    await setSetting('acpNative.mcpServers', undefined);
    await setSetting('mcp.servers', undefined);
    await setSetting('acpNative.agents', undefined);
    await setSetting('acpNative.defaultAgent', undefined);
    fs.rmSync(mcpJson(), { force: true });
    fs.rmSync(inWorkspace('.mcp'), { recursive: true, force: true });
    delete process.env.ACP_TEST_MCP_HEADER;
  });

  const received = async (record: string): Promise<unknown[]> => {
    await waitFor('the agent to record its MCP servers', () => fs.existsSync(record));
    return (JSON.parse(fs.readFileSync(record, 'utf8')) as unknown[][])[0] ?? [];
  };
  const stdioServers = () => [
    { name: 'from-setting', command: 'mcp-setting-tool', args: ['--root', root], env: [{ name: 'MODE', value: 'test' }] },
    {
      name: 'files',
      command: process.execPath,
      args: [`${root}/.mcp/server.js`, 'files'],
      env: [
        { name: 'ELECTRON_RUN_AS_NODE', value: '1' },
        { name: 'TEST_MCP_VAR', value: 'token-answer' },
        { name: 'HOME_DIR', value: os.homedir() },
      ],
    },
    { name: 'from-user', command: `${os.homedir()}/bin/user-tool`, args: [], env: [] },
  ];

  it('sends the servers resolved, in ACP shapes, leaving out http and sse for an agent that takes neither', async () => {
    const record = inWorkspace('.mcp/received-plain.json');
    await startTestAgent(api, 'third-party', ['--record-mcp', record]);
    await within('new session', api.newSession());
    assert.deepEqual(await received(record), stdioServers());
    assert.equal(asked.length, 1, 'the input was asked once');
    assert.equal(asked[0]?.prompt, 'Token for the files server');
    assert.equal(asked[0]?.password, true);

    const shown = (await vscode.commands.executeCommand('acpNative.showMcpServers')) as ShowMcpResult;
    assert.deepEqual(shown.servers.map((s) => [s.name, s.transport, s.keys]), [
      ['from-setting', 'stdio', ['MODE']],
      ['files', 'stdio', ['ELECTRON_RUN_AS_NODE', 'TEST_MCP_VAR', 'HOME_DIR']],
      ['from-user', 'stdio', []],
    ]);
    assert.deepEqual(shown.skipped.map((s) => [s.name, s.reason]), [
      ['setting-sse', 'agent "third-party" does not take MCP servers over sse (mcpCapabilities.sse)'],
      ['remote', 'agent "third-party" does not take MCP servers over http (mcpCapabilities.http)'],
    ]);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });

  it('keeps the http server for an agent that advertises mcpCapabilities.http, and reuses the stored input', async () => {
    const record = inWorkspace('.mcp/received-http.json');
    await startTestAgent(api, 'third-party', ['--mcp-http', '--record-mcp', record]);
    await within('new session', api.newSession());
    const [fromSetting, files, fromUser] = stdioServers();
    assert.deepEqual(await received(record), [
      fromSetting,
      files,
      { type: 'http', name: 'remote', url: 'http://127.0.0.1:9/mcp', headers: [{ name: 'X-Test', value: 'header from env' }] },
      fromUser,
    ]);
    assert.equal(asked.length, 1, 'the stored answer was reused, not asked again');
  });

  it('the bundled agent starts the workspace server and calls its tool, with the resolved environment', async () => {
    await useBundledAgent(api);
    await within('new session', api.newSession());
    const stop = await within('the /mcp turn', api.prompt('/mcp files environment'));
    assert.equal(stop, 'end_turn');
    const call = lastCall(api);
    assert.equal(call.title, 'files: environment');
    assert.equal(call.status, 'completed');
    const text = call.tree.children.map((c) => c.label).join('\n');
    assert.ok(text.includes(`TEST_MCP_VAR=token-answer cwd=${root}`), text);
  });
});
