// A benchmark agent: floods the client with `session/update`s as fast as it can write them.
// It is a real ACP agent on stdio (the SDK), started by the extension through `acpNative.agents`
// (see bench/host/treeStorm.ts). Each prompt is one line:
//   storm N [R]  N tool calls: each a `tool_call` then one or two `tool_call_update`s (2.5 N
//                messages), mixed kinds (read, edit with a diff, search, execute, fetch, think),
//                absolute paths in titles and locations, some failed; then `end_turn`. With R, paced
//                at R tool calls per second (an agent the client can keep up with); else flat out
//   baseline N [R]  the SAME number of messages, of the same sizes, as `agent_message_chunk`s: same
//                agent work, same bytes on the pipe, same SDK parsing on the client; only what the
//                client does with them differs (append to the transcript vs tool-call store + tree)
// Diff cards carry content but no terminal is announced: terminals are not what this measures.
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';

type Client = acp.AgentContext;

/** Notifications written before waiting for the pipe to take them. */
const WINDOW = 256;

const KINDS = ['read', 'edit', 'search', 'execute', 'read', 'edit', 'fetch', 'think'] as const;

/** The messages of tool call `i`: a `tool_call` then one or two `tool_call_update`s. */
function toolCallMessages(i: number, cwd: string): acp.SessionUpdate[] {
  const toolCallId = `storm_${i}`;
  const file = `${cwd}/src/pkg${i % 13}/module${i % 97}.ts`;
  const line = 1 + ((i * 7) % 300);
  const failed = i % 17 === 16;
  const end: acp.ToolCallStatus = failed ? 'failed' : 'completed';
  const kind = KINDS[i % KINDS.length];
  const text = (body: string): acp.ToolCallContent => ({ type: 'content', content: { type: 'text', text: body } });
  const call = (fields: Omit<acp.ToolCall, 'toolCallId'>): acp.SessionUpdate => ({ sessionUpdate: 'tool_call', toolCallId, ...fields });
  const patch = (fields: Omit<acp.ToolCallUpdate, 'toolCallId'>): acp.SessionUpdate => ({ sessionUpdate: 'tool_call_update', toolCallId, ...fields });
  const running = i % 2 === 0 ? [patch({ status: 'in_progress' })] : [];
  switch (kind) {
    case 'read':
      return [
        call({ title: `Read ${file}`, kind, status: 'pending', rawInput: { file_path: file }, locations: [{ path: file, line }] }),
        ...running,
        patch({ status: end, content: [text(`${line}\texport function f${i}() {\n${line + 1}\t  return ${i};\n${line + 2}\t}`)] }),
      ];
    case 'edit':
      return [
        call({ title: `Edit ${file}`, kind, status: 'pending', rawInput: { file_path: file, old_string: `return ${i};`, new_string: `return ${i + 1};` }, locations: [{ path: file }] }),
        ...running,
        patch({
          status: end,
          content: [{ type: 'diff', path: file, oldText: `export function f${i}() {\n  return ${i};\n}`, newText: `export function f${i}() {\n  return ${i + 1};\n}` }],
          locations: [{ path: file, line }],
        }),
      ];
    case 'search':
      return [
        call({ title: `grep "f${i}" src`, kind, status: 'pending', rawInput: { pattern: `f${i}`, path: `${cwd}/src` } }),
        ...running,
        patch({
          status: end,
          content: [text(`Found 3 matches`)],
          locations: [0, 1, 2].map((k) => ({ path: `${cwd}/src/pkg${(i + k) % 13}/module${(i + k) % 97}.ts`, line: line + k })),
        }),
      ];
    case 'execute':
      return [
        call({ title: `npm test -- --grep case${i}`, kind, status: 'pending', rawInput: { command: `npm test -- --grep case${i}` } }),
        ...running,
        patch({ status: end, content: [text(failed ? `1 failing\n  case${i}: expected ${i} to equal ${i + 1}` : `1 passing (${i % 50} ms)`)] }),
      ];
    case 'fetch':
      return [
        call({ title: `Fetch https://example.com/docs/${i}`, kind, status: 'pending', rawInput: { url: `https://example.com/docs/${i}` } }),
        ...running,
        patch({ status: end, content: [text(`# Page ${i}\n\nSome documentation text.`)] }),
      ];
    case 'think':
      return [call({ title: 'Thinking', kind, status: 'pending' }), ...running, patch({ status: end })];
  }
}

/** A message chunk whose notification is about as long as `like`'s: same bytes on the pipe. */
function chunkLike(like: acp.SessionUpdate, i: number): acp.SessionUpdate {
  const overhead = JSON.stringify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } }).length;
  const size = Math.max(1, JSON.stringify(like).length - overhead);
  const words = `Token ${i} of a long streamed answer. `;
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: words.repeat(Math.ceil(size / words.length)).slice(0, size) } };
}

async function flood(client: Client, sessionId: string, count: number, cwd: string, asChunks: boolean, callsPerSecond: number): Promise<number> {
  let inFlight: Promise<void>[] = [];
  let sent = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    // Paced: never ahead of `callsPerSecond` (checked every 10 calls, so timers stay coarse).
    const due = start + (i / callsPerSecond) * 1000;
    if (callsPerSecond > 0 && i % 10 === 0 && due > performance.now()) {
      await Promise.all(inFlight);
      inFlight = [];
      await new Promise((resolve) => setTimeout(resolve, due - performance.now()));
    }
    for (const update of toolCallMessages(i, cwd)) {
      inFlight.push(client.notify(acp.methods.client.session.update, { sessionId, update: asChunks ? chunkLike(update, sent) : update }));
      sent++;
      if (inFlight.length >= WINDOW) {
        await Promise.all(inFlight);
        inFlight = [];
      }
    }
  }
  await Promise.all(inFlight);
  return sent;
}

const sessions = new Map<string, string>();
let nextSession = 1;

acp
  .agent({ name: 'storm-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: false },
    agentInfo: { name: 'storm-agent', version: '0.0.0' },
  }))
  .onRequest(acp.methods.agent.session.new, ({ params }) => {
    const sessionId = `storm_session_${nextSession++}`;
    sessions.set(sessionId, params.cwd);
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    const text = params.prompt.map((b) => (b.type === 'text' ? b.text : '')).join('');
    const [mode, countText = '1000', paceText = '0'] = text.trim().split(/\s+/, 3);
    const count = Number.parseInt(countText, 10);
    const callsPerSecond = Number.parseInt(paceText, 10) || 0;
    const cwd = sessions.get(params.sessionId) ?? process.cwd();
    if ((mode === 'storm' || mode === 'baseline') && count > 0) {
      await flood(client, params.sessionId, count, cwd, mode === 'baseline', callsPerSecond);
    } else {
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `usage: storm N | baseline N (got "${text}")` } },
      });
    }
    return { stopReason: 'end_turn' };
  })
  .onNotification(acp.methods.agent.session.cancel, () => undefined)
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
