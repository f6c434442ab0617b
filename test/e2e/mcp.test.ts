/**
 * MCP servers end to end: the real bundled agent, over real stdio, given real MCP servers (the
 * official SDK) — one over stdio, one over streamable HTTP on loopback, one that cannot start —
 * by `session/new`. The scripted brain lists and calls them; the LLM brain offers their tools to a
 * loopback model and calls the one it picks; a crashing server fails its card and the turn goes on.
 */
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import * as esbuild from 'esbuild';
import { HttpMcpServer } from '../../harness/mcp/httpServer';
import { TINY_PNG } from '../../harness/mcp/tools';
import { AgentUnderTest } from './harness/agentProcess';
import { cardText, comparable, fold } from './harness/cards';
import { FakeModel } from './harness/fakeModel';
import { removeTempDirs, tempDir, tempWorkspace } from './harness/workspace';

describe('MCP servers', function () {
  this.timeout(30_000);
  let stdioServerJs: string;
  let http: HttpMcpServer;
  let httpBase: string;
  const agents: AgentUnderTest[] = [];

  before(async () => {
    // The stdio server as a plain Node program, as a user's server would be.
    stdioServerJs = path.join(tempDir('mcp-server'), 'stdioServer.js');
    await esbuild.build({
      entryPoints: [path.resolve(__dirname, '../../harness/agents/mcpStdioServer.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: stdioServerJs,
      logLevel: 'silent',
    });
    http = new HttpMcpServer();
    httpBase = await http.start('web');
  });
  after(async () => {
    await http.stop();
    removeTempDirs();
  });
  afterEach(async () => {
    for (const agent of agents.splice(0)) {
      assert.deepEqual(agent.validator.errors, []);
      await agent.stop();
    }
  });

  const servers = (): acp.McpServer[] => [
    { name: 'files', command: process.execPath, args: [stdioServerJs, 'files'], env: [{ name: 'TEST_MCP_VAR', value: 'from the client' }] },
    { type: 'http', name: 'web', url: `${httpBase}/mcp`, headers: [{ name: 'X-Test-Header', value: 'header value' }] },
    { type: 'sse', name: 'events', url: `${httpBase}/sse`, headers: [{ name: 'X-Test-Header', value: 'sse header' }] },
    { name: 'broken', command: process.execPath, args: [path.join(stdioServerJs, '..', 'missing.js')], env: [] },
  ];
  const start = async (args: string[] = [], env: Record<string, string> = {}): Promise<AgentUnderTest> => {
    const agent = await AgentUnderTest.start({ stateDir: tempDir('state'), terminalOutput: true, args, env });
    agents.push(agent);
    return agent;
  };

  it('advertises MCP over HTTP and SSE', async () => {
    const agent = await start();
    const init = await agent.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
    assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true });
  });

  it('/mcp lists the servers and their tools, and says why one is unavailable', async () => {
    const agent = await start();
    const ws = tempWorkspace();
    const { sessionId } = await agent.newSession(ws, servers());
    const { stopReason, updates } = await agent.prompt(sessionId, '/mcp');
    assert.equal(stopReason, 'end_turn');
    const text = fold(updates).agentText;
    assert.match(text, /\*\*files\*\* \(stdio\): 6 tools/);
    assert.match(text, /`echo` — Echoes its text back/);
    assert.match(text, /\*\*web\*\* \(http\): 6 tools/);
    assert.match(text, /\*\*events\*\* \(sse\): 6 tools/);
    assert.match(text, /\*\*broken\*\* \(stdio\): unavailable\. MCP server "broken" failed to start/);
    assert.match(text, /Cannot find module/, "the broken server's own error is shown");
    assert.ok(http.headers.some((h) => h['x-test-header'] === 'header value'), 'the HTTP server got the headers');
    assert.ok(http.headers.some((h) => h['x-test-header'] === 'sse header'), 'the SSE server got the headers');
  });

  it('/mcp SERVER TOOL calls a tool: a card titled SERVER: TOOL, asked about, with the tool\'s content', async () => {
    const agent = await start();
    const ws = tempWorkspace();
    const { sessionId } = await agent.newSession(ws, servers());
    const prompt = ['/mcp files echo', '```json', '{"text": "hello"}', '```', '/mcp web picture', '/mcp files environment', '/mcp events echo', '```', '{"text": "over sse"}', '```'].join('\n');
    const { stopReason, updates } = await agent.prompt(sessionId, prompt);
    assert.equal(stopReason, 'end_turn');
    const [echo, picture, environment, overSse] = fold(updates).cards;
    assert.deepEqual([echo?.title, echo?.kind, echo?.status, echo?.rawInput], ['files: echo', 'read', 'completed', { text: 'hello' }]);
    assert.equal(cardText(echo!), 'files echoes: hello');
    assert.deepEqual([picture?.title, picture?.kind, picture?.status], ['web: picture', 'other', 'completed']);
    assert.deepEqual(picture?.content, [
      { type: 'content', content: { type: 'image', data: TINY_PNG, mimeType: 'image/png' } },
      { type: 'content', content: { type: 'resource', resource: { uri: 'test://notes/readme.txt', text: 'a resource text', mimeType: 'text/plain' } } },
    ]);
    assert.equal(cardText(environment!), `TEST_MCP_VAR=from the client cwd=${ws}`);
    // The loopback server calls itself "web" on both transports; the client named this one "events".
    assert.deepEqual([overSse?.title, overSse?.status, cardText(overSse!)], ['events: echo', 'completed', 'web echoes: over sse']);
    // Asked like a command (the default mode asks), with MCP-specific "always" options.
    assert.deepEqual(agent.permissionRequests.map((r) => r.toolCall.title), ['files: echo', 'web: picture', 'files: environment', 'events: echo']);
    assert.ok(agent.permissionRequests[0]?.options.some((o) => o.name === 'Allow all MCP tool calls in this session'));
  });

  it('fails the card of a crashing or missing server with its error, and the turn goes on', async () => {
    const agent = await start(['--mode', 'bypass']);
    const { sessionId } = await agent.newSession(tempWorkspace(), servers());
    const prompt = ['/mcp files crash', '/mcp broken echo', '/mcp files fails', '/mcp files echo', '```', '{"text": "still here"}', '```'].join('\n');
    const { stopReason, updates } = await agent.prompt(sessionId, prompt);
    assert.equal(stopReason, 'end_turn');
    const [crash, broken, fails, echo] = fold(updates).cards;
    assert.equal(crash?.status, 'failed');
    assert.match(cardText(crash!), /MCP server "files" failed during crash/);
    assert.match(cardText(crash!), /boom: the server crashed on purpose/);
    assert.equal(broken?.status, 'failed');
    assert.match(cardText(broken!), /MCP server "broken" failed to start[\s\S]*Cannot find module/);
    assert.deepEqual([fails?.status, cardText(fails!)], ['failed', 'the tool failed on purpose']);
    // The crashed server is started again for the next call.
    assert.deepEqual([echo?.status, cardText(echo!)], ['completed', 'files echoes: still here']);
    assert.equal(agent.permissionRequests.length, 0, 'bypass mode asks nothing');
  });

  it('cancelling the turn cancels a running MCP call', async () => {
    const agent = await start(['--mode', 'bypass']);
    const { sessionId } = await agent.newSession(tempWorkspace(), servers());
    agent.onUpdate.push((_id, update) => {
      if (update.sessionUpdate === 'tool_call_update' && update.status === 'in_progress') void agent.cancel(sessionId);
    });
    const started = Date.now();
    const { stopReason, updates } = await agent.prompt(sessionId, '/mcp files wait\n```\n{"ms": 60000}\n```\n/mcp files echo\n```\n{"text": "not run"}\n```');
    assert.equal(stopReason, 'cancelled');
    assert.ok(Date.now() - started < 10_000, 'the call was not cancelled');
    const cards = fold(updates).cards;
    assert.deepEqual(cards.map((c) => [c.title, c.status]), [['files: wait', 'failed']]);
  });

  it('the LLM brain offers MCP tools as mcp__SERVER__TOOL functions and calls the one the model picks', async () => {
    const model = new FakeModel((request, index) => {
      if (index === 0) return { toolCalls: [{ name: 'mcp__files__echo', arguments: JSON.stringify({ text: 'from the model' }) }] };
      if (index === 1) return { text: [`The tool said: ${String(request.body.messages.at(-1)?.content)}`] };
      return { text: ['Again.'] };
    });
    const baseURL = await model.start();
    try {
      const stateDir = tempDir('state');
      const llm = ['--brain', 'llm', '--base-url', baseURL, '--model', 'test-model', '--mode', 'bypass'];
      const agent = await AgentUnderTest.start({ stateDir, terminalOutput: true, args: llm });
      agents.push(agent);
      const ws = tempWorkspace();
      const { sessionId } = await agent.newSession(ws, servers());
      const { stopReason, updates } = await agent.prompt(sessionId, 'Echo something.');
      assert.equal(stopReason, 'end_turn');
      const live = fold(updates);
      assert.deepEqual(live.cards.map((c) => [c.title, c.kind, c.status, cardText(c)]), [['files: echo', 'read', 'completed', 'files echoes: from the model']]);
      assert.match(live.agentText, /^⚠ MCP server "broken" failed to start[^]*\n\nThe tool said: files echoes: from the model$/, 'the user is told which server is unavailable');

      const offered = model.requests[0]?.body.tools ?? [];
      const names = offered.map((t) => t.function.name);
      assert.ok(names.includes('read') && names.includes('mcp__files__echo') && names.includes('mcp__web__picture'), names.join(', '));
      assert.ok(!names.includes('mcp'), 'the internal mcp tool is not offered');
      assert.ok(!names.some((n) => n.startsWith('mcp__broken__')));
      const echoSpec = offered.find((t) => t.function.name === 'mcp__files__echo');
      assert.deepEqual((echoSpec?.function.parameters as { properties?: object }).properties, { text: { type: 'string' } });
      const system = String(model.requests[0]?.body.messages[0]?.content);
      assert.match(system, /MCP server "broken" failed to start/, 'the model is told which server is unavailable');

      // Reloaded in a new process: the same card, and the model gets its call back by its own name.
      await agent.stop();
      agents.splice(agents.indexOf(agent), 1);
      const again = await AgentUnderTest.start({ stateDir, terminalOutput: true, args: llm });
      agents.push(again);
      const replay = fold((await again.load(sessionId, ws, servers())).updates);
      assert.deepEqual(replay.cards.map(comparable), live.cards.map(comparable));
      await again.prompt(sessionId, 'Once more.');
      const history = model.requests[2]?.body.messages ?? [];
      const call = history.find((m) => m.tool_calls !== undefined)?.tool_calls?.[0];
      assert.deepEqual(call?.function, { name: 'mcp__files__echo', arguments: JSON.stringify({ text: 'from the model' }) });
    } finally {
      await model.stop();
    }
  });
});
