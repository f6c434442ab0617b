// The messages of the benchmark agent (harness/agents/stormAgent.ts), shared with the benchmark that
// compares a replay (`session/load`) against reading and parsing the same updates from a file
// (bench/host/treeStorm.ts): both sides build the very same updates from here.
import type * as acp from '@agentclientprotocol/sdk';

const KINDS = ['read', 'edit', 'search', 'execute', 'read', 'edit', 'fetch', 'think'] as const;

/** The messages of tool call `i`: a `tool_call` then one or two `tool_call_update`s. */
export function toolCallMessages(i: number, cwd: string): acp.SessionUpdate[] {
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
export function chunkLike(like: acp.SessionUpdate, i: number): acp.SessionUpdate {
  const overhead = JSON.stringify({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' } }).length;
  const size = Math.max(1, JSON.stringify(like).length - overhead);
  const words = `Token ${i} of a long streamed answer. `;
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: words.repeat(Math.ceil(size / words.length)).slice(0, size) } };
}

/**
 * A stored conversation of exactly `count` updates, as an agent replays it on `session/load`: turns
 * of a user message, a few chunks of the agent's answer, then the storm's tool calls.
 */
export function replayUpdates(count: number, cwd: string): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  const text = (sessionUpdate: 'user_message_chunk' | 'agent_message_chunk', body: string): acp.SessionUpdate => ({
    sessionUpdate,
    content: { type: 'text', text: body },
  });
  for (let call = 0; updates.length < count; call++) {
    if (call % 20 === 0) {
      updates.push(text('user_message_chunk', `Step ${call / 20}: fix the failing tests in src/pkg${call % 13}.`));
      for (let k = 0; k < 4; k++) updates.push(text('agent_message_chunk', `Looking at module${(call + k) % 97}.ts, part ${k} of the plan. `));
    }
    updates.push(...toolCallMessages(call, cwd));
  }
  return updates.slice(0, count);
}

/** The session id that makes the storm agent replay `count` updates on `session/load`. */
export function replaySessionId(count: number): string {
  return `storm_replay_${count}`;
}

export function replayCount(sessionId: string): number | undefined {
  const match = /^storm_replay_(\d+)$/.exec(sessionId);
  return match ? Number(match[1]) : undefined;
}
