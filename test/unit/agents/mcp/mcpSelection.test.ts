import * as assert from 'node:assert/strict';
import { parseAcpNativeServers, parseMcpJsonText, parseVsCodeMcp, type McpCandidate, type McpSource } from '../../../../src/extension/agents/mcp/model/mcpConfig';
import { combineSources, inputKey, inputsUsed, resolveCandidate, serversForAgent, toAcpServer, type VariableContext } from '../../../../src/extension/agents/mcp/model/mcpSelection';

const folder: McpSource = { label: '/w/app/.vscode/mcp.json', folder: '/w/app', inputScope: '/w/app/.vscode/mcp.json' };
const setting: McpSource = { label: 'acpNative.mcpServers', folder: '/w/app', inputScope: 'acpNative' };
const user: McpSource = { label: 'user settings (mcp)', inputScope: 'user' };
const ctx = (inputs: Record<string, string> = {}): VariableContext => ({
  userHome: '/home/u',
  env: { TOKEN_VAR: 'from-env' },
  inputs: new Map(Object.entries(inputs)),
  pathSeparator: '/',
});
const only = (c: McpCandidate[]): McpCandidate => {
  assert.equal(c.length, 1);
  return c[0]!;
};

describe('MCP configuration (VS Code format and acpNative.mcpServers)', () => {
  it('reads .vscode/mcp.json with comments and trailing commas, inputs included', () => {
    const parsed = parseMcpJsonText(
      `{
        // VS Code's own format
        "inputs": [{ "type": "promptString", "id": "api-key", "description": "The API key", "password": true, }],
        "servers": {
          "files": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js"], "env": { "KEY": "\${input:api-key}", "PORT": 8080 } },
          "web": { "type": "http", "url": "https://example.test/mcp", "headers": { "X-Key": "\${env:TOKEN_VAR}" } },
          "untyped": { "url": "https://example.test/other" },
        },
      }`,
      folder,
    );
    assert.deepEqual(parsed.skipped, []);
    assert.deepEqual(parsed.candidates.map((c) => [c.name, c.transport]), [['files', 'stdio'], ['web', 'http'], ['untyped', 'http']]);
    assert.deepEqual(parsed.candidates[0], { name: 'files', source: folder, transport: 'stdio', command: 'node', args: ['${workspaceFolder}/server.js'], env: { KEY: '${input:api-key}', PORT: '8080' } });
    assert.deepEqual(parsed.inputs, [{ id: 'api-key', type: 'promptString', description: 'The API key', password: true, scope: folder.inputScope }]);
  });

  it('skips what it cannot use, saying why, and keeps the rest', () => {
    const parsed = parseVsCodeMcp(
      {
        servers: {
          noCommand: { type: 'stdio' },
          envFile: { command: 'x', envFile: '.env' },
          badArgs: { command: 'x', args: 'not an array' },
          ws: { type: 'websocket', url: 'ws://x' },
          ok: { command: 'x' },
        },
      },
      folder,
    );
    assert.deepEqual(parsed.candidates.map((c) => c.name), ['ok']);
    assert.deepEqual(
      parsed.skipped.map((s) => [s.name, s.reason]),
      [
        ['noCommand', 'a stdio server needs a "command"'],
        ['envFile', '"envFile" is not supported by ACP Native; put the variables in "env"'],
        ['badArgs', '"args" must be an array of strings'],
        ['ws', 'unknown server type "websocket" (ACP carries stdio, http and sse)'],
      ],
    );
  });

  it('says where a file does not parse', () => {
    const parsed = parseMcpJsonText('{\n  "servers": {\n    "a": { "command": "x" \n  }\n', folder);
    assert.deepEqual(parsed.candidates, []);
    assert.match(parsed.skipped[0]?.reason ?? '', /not valid JSON: .* on line \d/);
  });

  it('reads the acpNative.mcpServers array', () => {
    const parsed = parseAcpNativeServers(
      [
        { name: 'local', command: 'mcp-local', args: ['--x'], env: { A: 'b' } },
        { name: 'remote', type: 'sse', url: 'https://example.test/sse', headers: { Authorization: 'Bearer ${env:TOKEN_VAR}' } },
        { command: 'nameless' },
      ],
      setting,
    );
    assert.deepEqual(parsed.candidates.map((c) => [c.name, c.transport]), [['local', 'stdio'], ['remote', 'sse']]);
    assert.deepEqual(parsed.skipped, [{ name: '#3', source: 'acpNative.mcpServers', reason: 'the entry has no "name"' }]);
    assert.deepEqual(parseAcpNativeServers(undefined, setting).candidates, []);
  });
});

describe('MCP servers for an agent', () => {
  it('resolves ${workspaceFolder}, ${userHome}, ${env:NAME} and ${input:ID}', () => {
    const candidate = only(parseMcpJsonText(JSON.stringify({
      servers: { s: { command: '${userHome}/bin/tool', args: ['${workspaceFolder}/data', '${workspaceFolderBasename}'], env: { K: '${input:key}', T: '${env:TOKEN_VAR}', U: '${env:UNSET_VAR}' } } },
    }), folder).candidates);
    assert.deepEqual(inputsUsed(candidate), ['key']);
    const r = resolveCandidate(candidate, ctx({ [inputKey(folder.inputScope, 'key')]: 'secret-answer' }));
    assert.ok(r.ok);
    assert.deepEqual(toAcpServer(r.server), {
      name: 's',
      command: '/home/u/bin/tool',
      args: ['/w/app/data', 'app'],
      env: [{ name: 'K', value: 'secret-answer' }, { name: 'T', value: 'from-env' }, { name: 'U', value: '' }],
    });
  });

  it('cannot resolve an unanswered input, an unknown variable, or ${workspaceFolder} without a folder', () => {
    const stdio = (args: string[], source = folder): McpCandidate => ({ name: 'x', source, transport: 'stdio', command: 'c', args, env: {} });
    const reason = (c: McpCandidate): string => {
      const r = resolveCandidate(c, ctx());
      assert.ok(!r.ok);
      return r.reason;
    };
    assert.match(reason(stdio(['${input:key}'])), /input "key" has no answer/);
    assert.match(reason(stdio(['${command:pick}'])), /uses \$\{command:pick\}, a variable ACP Native does not resolve/);
    assert.match(reason(stdio(['${workspaceFolder}'], user)), /no workspace folder is open/);
    // An input answered for another file is not this file's answer.
    assert.ok(!resolveCandidate(stdio(['${input:key}']), ctx({ [inputKey('user', 'key')]: 'v' })).ok);
  });

  it('maps http and sse servers to the ACP shape with headers as name/value pairs', () => {
    const http: McpCandidate = { name: 'h', source: setting, transport: 'http', url: 'https://x.test/mcp', headers: { 'X-A': '${env:TOKEN_VAR}' } };
    const r = resolveCandidate(http, ctx());
    assert.ok(r.ok);
    assert.deepEqual(toAcpServer(r.server), { type: 'http', name: 'h', url: 'https://x.test/mcp', headers: [{ name: 'X-A', value: 'from-env' }] });
    const notHttp = resolveCandidate({ ...http, url: 'file:///etc/passwd' }, ctx());
    assert.ok(!notHttp.ok);
  });

  it('keeps the first server of a name, in order of precedence', () => {
    const a = parseAcpNativeServers([{ name: 'dup', command: 'first' }], setting);
    const b = parseVsCodeMcp({ servers: { dup: { command: 'second' }, other: { command: 'o' } } }, folder);
    const combined = combineSources([a, b]);
    assert.deepEqual(combined.candidates.map((c) => [c.name, c.transport === 'stdio' ? c.command : '']), [['dup', 'first'], ['other', 'o']]);
    assert.deepEqual(combined.skipped, [{ name: 'dup', source: folder.label, reason: 'a server of that name comes first from acpNative.mcpServers' }]);
  });

  it('sends http and sse only to agents that advertise them, and says what it left out', () => {
    const servers = [
      { server: { name: 's', command: 'c', args: [], env: [] }, source: 'a' },
      { server: { type: 'http' as const, name: 'h', url: 'https://x.test', headers: [] }, source: 'b' },
      { server: { type: 'sse' as const, name: 'e', url: 'https://x.test/sse', headers: [] }, source: 'c' },
    ];
    const none = serversForAgent(servers, undefined, 'codex');
    assert.deepEqual(none.servers.map((s) => s.name), ['s']);
    assert.deepEqual(none.skipped.map((s) => [s.name, s.reason]), [
      ['h', 'agent "codex" does not take MCP servers over http (mcpCapabilities.http)'],
      ['e', 'agent "codex" does not take MCP servers over sse (mcpCapabilities.sse)'],
    ]);
    assert.deepEqual(serversForAgent(servers, { http: true }, 'x').servers.map((s) => s.name), ['s', 'h']);
    assert.deepEqual(serversForAgent(servers, { http: true, sse: true }, 'x').servers.map((s) => s.name), ['s', 'h', 'e']);
  });
});
