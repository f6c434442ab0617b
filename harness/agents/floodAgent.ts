// A benchmark and test agent for big I/O (issue 15): terminal floods and the edit of a big file.
// It is a real ACP agent on stdio (the SDK), started by the extension through `acpNative.agents`
// (bench/host/ioFloods.ts, test/integration/ioFloods.test.ts). Each prompt is one line:
//   client MB [LIMIT] [POLL_MS]  `terminal/create` of a Node writer printing MB megabytes of numbered
//                            lines (harness/agents/lib/floodLines.ts) with `outputByteLimit` LIMIT
//                            (none: the client's default), polling `terminal/output` every POLL_MS
//                            (default 100) until it exits, then once more and `release`. The
//                            tool call's rawOutput reports the last answer: bytes, truncated,
//                            whether it is the exact tail of the output, and the polls made
//   display MB [CHUNK_KB]    a display terminal (`_meta.terminal_info`) streaming MB megabytes of
//                            the same lines as `_meta.terminal_output` in CHUNK_KB pieces (default
//                            32, as an adapter streams a command's reads), flat out, then
//                            `terminal_exit`
//   edit PATH                reads PATH through the client (`fs/read_text_file`), changes its middle
//                            line, writes it back (`fs/write_text_file`) and reports the change as
//                            Claude's adapter does: the call-time snippet, then the applied hunk
//                            (±3 context lines) with a location
import * as acp from '@agentclientprotocol/sdk';
import { benchAgent, promptText, SendWindow, stdioStream } from './lib/agentKit';
import { floodChunk, floodWriterScript, isFloodTail } from './lib/floodLines';

type Client = acp.AgentContext;

/** Notifications written before waiting for the pipe to take them. */
const WINDOW = 64;

const sessions = new Map<string, string>();
let nextCall = 1;

const update = (client: Client, sessionId: string, u: acp.SessionUpdate) => client.notify(acp.methods.client.session.update, { sessionId, update: u });

async function clientFlood(client: Client, sessionId: string, cwd: string, mb: number, limit: number | undefined, pollMs: number): Promise<void> {
  const toolCallId = `flood_${nextCall++}`;
  const { terminalId } = await client.request(acp.methods.client.terminal.create, {
    sessionId,
    command: process.execPath,
    args: ['-e', floodWriterScript(mb)],
    env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
    cwd,
    ...(limit !== undefined ? { outputByteLimit: limit } : {}),
  });
  await update(client, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Flood ${mb} MB`, kind: 'execute', status: 'in_progress', content: [{ type: 'terminal', terminalId }] });
  let exited = false;
  const exit = client.request(acp.methods.client.terminal.waitForExit, { sessionId, terminalId }).finally(() => (exited = true));
  let polls = 0;
  while (!exited) {
    await new Promise((resolve) => setTimeout(resolve, pollMs));
    await client.request(acp.methods.client.terminal.output, { sessionId, terminalId });
    polls++;
  }
  const status = await exit;
  const out = await client.request(acp.methods.client.terminal.output, { sessionId, terminalId });
  await client.request(acp.methods.client.terminal.release, { sessionId, terminalId });
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    rawOutput: {
      exitCode: status.exitCode,
      bytes: Buffer.byteLength(out.output),
      truncated: out.truncated,
      tailIntact: isFloodTail(out.output, mb * 2 ** 20),
      polls,
    },
  });
}

async function displayFlood(client: Client, sessionId: string, cwd: string, mb: number, chunkKb: number): Promise<void> {
  const toolCallId = `display_${nextCall++}`;
  const terminalId = toolCallId;
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `Display flood ${mb} MB`,
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId }],
    _meta: { terminal_info: { terminal_id: terminalId, cwd } },
  });
  const total = mb * 2 ** 20;
  const window = new SendWindow(WINDOW);
  for (let offset = 0; offset < total; ) {
    const data = floodChunk(offset, Math.min(chunkKb * 1024, total - offset), total);
    offset += data.length;
    if (window.add(update(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, _meta: { terminal_output: { terminal_id: terminalId, data } } }))) await window.drain();
  }
  await window.drain();
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    _meta: { terminal_exit: { terminal_id: terminalId, exit_code: 0, signal: null } },
  });
}

async function edit(client: Client, sessionId: string, path: string): Promise<void> {
  const toolCallId = `edit_${nextCall++}`;
  const { content } = await client.request(acp.methods.client.fs.readTextFile, { sessionId, path });
  const lines = content.split('\n');
  const middle = Math.floor(lines.length / 2);
  const oldLine = lines[middle];
  const newLine = `${oldLine} // edited`;
  await update(client, sessionId, {
    sessionUpdate: 'tool_call',
    toolCallId,
    title: `Edit ${path}`,
    kind: 'edit',
    status: 'pending',
    content: [{ type: 'diff', path, oldText: oldLine, newText: newLine }],
    locations: [{ path }],
  });
  lines[middle] = newLine;
  await client.request(acp.methods.client.fs.writeTextFile, { sessionId, path, content: lines.join('\n') });
  const from = Math.max(0, middle - 3);
  const to = Math.min(lines.length, middle + 4);
  const after = lines.slice(from, to);
  const before = [...after];
  before[middle - from] = oldLine;
  await update(client, sessionId, {
    sessionUpdate: 'tool_call_update',
    toolCallId,
    status: 'completed',
    content: [{ type: 'diff', path, oldText: before.join('\n'), newText: after.join('\n') }],
    locations: [{ path, line: middle + 1 }],
  });
}

benchAgent('flood-agent', { prefix: 'flood', loadSession: false, sessions })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = promptText(params.prompt);
    const [mode, first = '', second, third] = text.trim().split(/\s+/);
    const cwd = sessions.get(params.sessionId) ?? process.cwd();
    const num = (value: string | undefined) => (value === undefined || value === '-' ? undefined : Number(value));
    switch (mode) {
      case 'client':
        await clientFlood(client, params.sessionId, cwd, Number(first), num(second), num(third) ?? 100);
        break;
      case 'display':
        await displayFlood(client, params.sessionId, cwd, Number(first), num(second) ?? 32);
        break;
      case 'edit':
        await edit(client, params.sessionId, first);
        break;
      default:
        await update(client, params.sessionId, {
          sessionUpdate: 'agent_message_chunk',
          content: { type: 'text', text: `usage: client MB [LIMIT] [POLL_MS] | display MB [CHUNK_KB] | edit PATH (got "${text}")` },
        });
    }
    return { stopReason: 'end_turn' };
  })
  .connect(stdioStream());
