// A test agent that hands work to subagents exactly as Claude's ACP adapter (0.101.0) does for a
// client that advertises `subagents` (and, for tests of bad input, in ways it should not). See
// /work/shared/notes/acp-protocol.md "Subagent sessions". It speaks the SDK's `/unstable` entry.
//
// Every child is announced on the PARENT (`subagent_update`, title = the task, description =
// "general-purpose", capabilities {cancel: {}}, state running); its prompt is a linked pair of
// `session_message`s (messageId = the Agent tool-use id); its traffic carries params.sessionId =
// the child and `_meta.claudeCode.parentToolUseId`; at the end `subagent_update` idle end_turn, then
// on the parent only `session_message {messageId: "<toolUseId>:reply"}` with the tools line and the
// report. No parent `tool_call` for the Agent call (as Claude's adapter).
//
// Each prompt names a scenario on its first line:
//   spawn TITLE               one child: says a line, reads a file (a completed read call), reports
//   spawn-edit PARENT CHILD   the parent edits file PARENT, a child edits file CHILD (absolute
//                             paths; each a tool call with a diff, the file written by the agent)
//   spawn-ask                 a child asks permission (the parent brackets it with requires_action
//                             and running); its report says what the user answered
//   spawn-wait                a child runs a call and waits until `session/cancel` names the child;
//                             then idle cancelled. The parent's turn waits for it
//   spawn-bg                  a background child: the reply at once is Claude's "Async agent launched"
//                             and the turn ends; the child keeps working until a `finish-bg` prompt
//   finish-bg                 the background child ends (idle end_turn, its report)
//   spawn-many N [CALLS]      N children at once, each with CALLS (default 1) tool calls
//   spawn-nested              a child that spawns a child of its own
//   spawn-early               a child whose first updates come before its subagent_update
//   spawn-collide             a subagent_update whose id is the parent's own session id
//   anything else             answers "Received: " and the prompt
// `session/load` replays every update of the session and of its children, in order.
import { writeFileSync, readFileSync, existsSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';

type Client = acp.AgentContext;

interface Logged {
  readonly sessionId: string;
  readonly update: acp.SessionUpdate;
}
/** Each parent session's replay log (its children's traffic included). */
const logs = new Map<string, Logged[]>();
/** Children's ids → the parent session whose log has their traffic. */
const parents = new Map<string, string>();
let nextSession = 1;
let nextChild = 1;
let nextTool = 1;
/** Cancels that named a child: resolve its wait. */
const cancelled = new Map<string, () => void>();
let finishBackground: (() => void) | undefined;

async function send(ctx: Client, sessionId: string, update: acp.SessionUpdate): Promise<void> {
  const root = parents.get(sessionId) ?? sessionId;
  logs.get(root)?.push({ sessionId, update });
  await ctx.notify(acp.methods.client.session.update, { sessionId, update });
}

/** A 17-character id like Claude Code's agent ids. */
function childId(): string {
  return `agent${String(nextChild++).padStart(12, '0')}`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Child {
  readonly id: string;
  readonly toolUseId: string;
  readonly parent: string;
  readonly used: Set<string>;
}

async function announce(ctx: Client, parent: string, title: string, prompt: string, id = childId()): Promise<Child> {
  const toolUseId = `toolu_${String(nextTool++).padStart(4, '0')}`;
  parents.set(id, parents.get(parent) ?? parent);
  await send(ctx, parent, { sessionUpdate: 'subagent_update', sessionId: id, title, description: 'general-purpose', capabilities: { cancel: {} }, state: { state: 'running' } } as acp.SessionUpdate);
  await send(ctx, parent, { sessionUpdate: 'session_message', messageId: toolUseId, recipientSessionId: id, recipientMessageId: toolUseId, content: [{ type: 'text', text: prompt }] } as acp.SessionUpdate);
  await send(ctx, id, { sessionUpdate: 'session_message', messageId: toolUseId, senderSessionId: parent, senderMessageId: toolUseId, content: [{ type: 'text', text: prompt }] } as acp.SessionUpdate);
  return { id, toolUseId, parent, used: new Set() };
}

const meta = (child: Child) => ({ claudeCode: { parentToolUseId: child.toolUseId } });

async function childSays(ctx: Client, child: Child, text: string): Promise<void> {
  await send(ctx, child.id, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text }, _meta: meta(child) });
}

async function childReads(ctx: Client, child: Child, path: string): Promise<void> {
  const toolCallId = `toolu_${String(nextTool++).padStart(4, '0')}`;
  child.used.add('Read');
  await send(ctx, child.id, { sessionUpdate: 'tool_call', toolCallId, title: `Read ${path}`, kind: 'read', status: 'in_progress', locations: [{ path }], _meta: meta(child) });
  await send(ctx, child.id, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', _meta: meta(child) });
}

/** An Edit as Claude's adapter reports it: a diff at call time, then the write, then completed. */
async function edits(ctx: Client, sessionId: string, path: string, newText: string, child?: Child): Promise<void> {
  const toolCallId = `toolu_${String(nextTool++).padStart(4, '0')}`;
  const oldText = existsSync(path) ? readFileSync(path, 'utf8') : null;
  child?.used.add('Edit');
  const extra = child ? { _meta: meta(child) } : {};
  await send(ctx, sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `Edit ${path}`, kind: 'edit', status: 'pending', locations: [{ path }], content: [{ type: 'diff', path, oldText, newText }], ...extra });
  await sleep(100);
  writeFileSync(path, newText);
  await send(ctx, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', ...extra });
}

async function finish(ctx: Client, child: Child, report: string, stopReason: acp.StopReason = 'end_turn'): Promise<void> {
  await send(ctx, child.parent, { sessionUpdate: 'subagent_update', sessionId: child.id, state: { state: 'idle', stopReason } } as acp.SessionUpdate);
  const tools = [...child.used].join(', ');
  await send(ctx, child.parent, {
    sessionUpdate: 'session_message',
    messageId: `${child.toolUseId}:reply`,
    senderSessionId: child.id,
    recipientSessionId: child.parent,
    content: [{ type: 'text', text: `<tools-used-before-summary>${tools}</tools-used-before-summary>\n` }, { type: 'text', text: report }],
  } as acp.SessionUpdate);
}

async function prompt(ctx: Client, sessionId: string, blocks: acp.ContentBlock[]): Promise<void> {
  const all = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
  const [head = ''] = all.split('\n');
  const [scenario = '', ...args] = head.trim().split(/\s+/);
  logs.get(sessionId)?.push({ sessionId, update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: all } } });
  switch (scenario) {
    case 'spawn': {
      const title = args.join(' ') || 'Read hello';
      const child = await announce(ctx, sessionId, title, `${title}: read hello.txt and say what it holds.`);
      await childSays(ctx, child, 'Reading hello.txt.');
      await childReads(ctx, child, '/workspace/hello.txt');
      return finish(ctx, child, 'hello.txt says hello.');
    }
    case 'spawn-edit': {
      const [parentFile = '', childFile = ''] = args;
      await edits(ctx, sessionId, parentFile, 'edited by the parent\n');
      const child = await announce(ctx, sessionId, 'Edit the second file', `Edit ${childFile}.`);
      await edits(ctx, child.id, childFile, 'edited by the subagent\n', child);
      return finish(ctx, child, `Edited ${childFile}.`);
    }
    case 'spawn-ask': {
      const child = await announce(ctx, sessionId, 'Run the tests', 'Run the tests.');
      const toolCallId = `toolu_${String(nextTool++).padStart(4, '0')}`;
      child.used.add('Bash');
      await send(ctx, child.id, { sessionUpdate: 'tool_call', toolCallId, title: 'npm test', kind: 'execute', status: 'pending', rawInput: { command: 'npm test' }, _meta: meta(child) });
      await send(ctx, sessionId, { sessionUpdate: 'subagent_update', sessionId: child.id, state: { state: 'requires_action' } } as acp.SessionUpdate);
      const answer = await ctx.request(acp.methods.client.session.requestPermission, {
        sessionId: child.id,
        toolCall: { toolCallId, title: 'npm test', kind: 'execute' },
        options: [
          { optionId: 'allow', name: 'Yes', kind: 'allow_once' },
          { optionId: 'reject', name: 'No', kind: 'reject_once' },
        ],
      });
      await send(ctx, sessionId, { sessionUpdate: 'subagent_update', sessionId: child.id, state: { state: 'running' } } as acp.SessionUpdate);
      const outcome = answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled';
      await send(ctx, child.id, { sessionUpdate: 'tool_call_update', toolCallId, status: outcome === 'allow' ? 'completed' : 'failed', _meta: meta(child) });
      return finish(ctx, child, `The user answered ${outcome}.`);
    }
    case 'spawn-wait': {
      const child = await announce(ctx, sessionId, 'Wait for a stop', 'Work until stopped.');
      const toolCallId = `toolu_${String(nextTool++).padStart(4, '0')}`;
      await send(ctx, child.id, { sessionUpdate: 'tool_call', toolCallId, title: 'sleep 600', kind: 'execute', status: 'in_progress', _meta: meta(child) });
      await new Promise<void>((resolve) => cancelled.set(child.id, resolve));
      await send(ctx, child.id, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', _meta: meta(child) });
      return finish(ctx, child, 'Stopped.', 'cancelled');
    }
    case 'spawn-bg': {
      const child = await announce(ctx, sessionId, 'Watch in the background', 'Keep watching.');
      await send(ctx, sessionId, {
        sessionUpdate: 'session_message',
        messageId: `${child.toolUseId}:reply`,
        senderSessionId: child.id,
        recipientSessionId: sessionId,
        content: [{ type: 'text', text: `Async agent launched successfully.\nagentId: ${child.id}` }],
      } as acp.SessionUpdate);
      void (async () => {
        await childSays(ctx, child, 'Still watching.');
        await new Promise<void>((resolve) => (finishBackground = resolve));
        await childReads(ctx, child, '/workspace/log.txt');
        await finish(ctx, child, 'Nothing happened.');
      })();
      return;
    }
    case 'finish-bg':
      finishBackground?.();
      finishBackground = undefined;
      await sleep(200);
      return;
    case 'spawn-many': {
      const count = Number(args[0] ?? 50);
      const calls = Number(args[1] ?? 1);
      const children = await Promise.all(Array.from({ length: count }, (_, i) => announce(ctx, sessionId, `Task ${i + 1}`, `Task ${i + 1}.`)));
      for (let c = 0; c < calls; c++) for (const child of children) await childReads(ctx, child, `/workspace/f${c}.txt`);
      for (const [i, child] of children.entries()) await finish(ctx, child, `Task ${i + 1} done.`);
      return;
    }
    case 'spawn-nested': {
      const child = await announce(ctx, sessionId, 'Outer task', 'Split this up.');
      const grandchild = await announce(ctx, child.id, 'Inner task', 'Do the inner part.');
      await childReads(ctx, grandchild, '/workspace/inner.txt');
      await finish(ctx, grandchild, 'Inner done.');
      await childSays(ctx, child, 'The inner task is done.');
      return finish(ctx, child, 'Outer done.');
    }
    case 'spawn-early': {
      const id = childId();
      parents.set(id, sessionId);
      const early: Child = { id, toolUseId: `toolu_${String(nextTool++).padStart(4, '0')}`, parent: sessionId, used: new Set() };
      await childSays(ctx, early, 'I came first.');
      await childReads(ctx, early, '/workspace/early.txt');
      const child = await announce(ctx, sessionId, 'Announced late', 'Late.', id);
      return finish(ctx, { ...child, used: early.used }, 'Early bird.');
    }
    case 'spawn-collide':
      await send(ctx, sessionId, { sessionUpdate: 'subagent_update', sessionId, title: 'Impostor', state: { state: 'running' } } as acp.SessionUpdate);
      return;
    default:
      await send(ctx, sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Received: ${all}` } });
  }
}

acp
  .agent({ name: 'subagent-test-agent' })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: { loadSession: true },
    agentInfo: { name: '@agentclientprotocol/claude-agent-acp', title: 'Subagent test agent', version: '0.101.0' },
  }))
  .onRequest(acp.methods.agent.session.new, () => {
    const sessionId = `subagent_parent_${nextSession++}`;
    logs.set(sessionId, []);
    return { sessionId };
  })
  .onRequest(acp.methods.agent.session.load, async ({ params, client: ctx }) => {
    const log = logs.get(params.sessionId);
    if (!log) throw acp.RequestError.resourceNotFound(params.sessionId);
    for (const { sessionId, update } of [...log]) await ctx.notify(acp.methods.client.session.update, { sessionId, update });
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client: ctx }) => {
    await prompt(ctx, params.sessionId, params.prompt);
    return { stopReason: 'end_turn' as const };
  })
  .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
    const stop = cancelled.get(params.sessionId);
    cancelled.delete(params.sessionId);
    stop?.();
  })
  .connect(acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
