/**
 * The bridge: render intents (views.ts) → ACP `session/update` payloads. One arm per card kind,
 * each producing exactly the wire shape that card needs; every switch ends in `assertNever`.
 * The same functions serve the live turn and session replay, so replayed cards equal live ones.
 */
import type { SessionUpdate, ToolCallContent, ToolCallLocation, ToolCallStatus, ToolCallUpdate } from '@agentclientprotocol/sdk';
import { assertNever } from '../protocol/assertNever';
import type { TerminalExitMeta, TerminalInfoMeta, TerminalOutputMeta } from '../protocol/terminalMeta';
import { fenced } from './markdown';
import { displayTitle } from './titles';
import type { FileDiff, FileLocation, TerminalResultView, ToolCallView, ToolResultView } from './views';

export type ToolCallMessage = Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>;
export type ToolCallUpdateMessage = Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>;

export interface BridgeContext {
  /** Session cwd: titles are shown relative to it. */
  cwd: string;
  /** The client opted in to display terminals (`clientCapabilities._meta.terminal_output`). */
  terminalOutput: boolean;
}

/** The `tool_call` that announces a call. It starts `pending` (permission may still be asked). */
export function callToAcp(toolCallId: string, view: ToolCallView, ctx: BridgeContext): ToolCallMessage {
  // Every arm spells its fields out: on Node 20, a literal that starts with `...base` and adds
  // fields costs ~2 µs (V8's slow object-clone path), most of a replayed tool call's time.
  switch (view.card) {
    case 'generic': {
      const message: ToolCallMessage = {
        sessionUpdate: 'tool_call',
        toolCallId,
        status: 'pending',
        title: displayTitle(view.title, view.locations?.[0]?.path, ctx.cwd),
        kind: view.kind ?? 'other',
        content: (view.content ?? []).map((content) => ({ type: 'content', content })),
        locations: locationsToAcp(view.locations),
      };
      if (view.rawInput !== undefined) message.rawInput = view.rawInput;
      return message;
    }
    case 'terminal': {
      const description: ToolCallContent[] = view.description
        ? [{ type: 'content', content: { type: 'text', text: view.description } }]
        : [];
      if (!ctx.terminalOutput) return { sessionUpdate: 'tool_call', toolCallId, status: 'pending', title: view.title, kind: 'execute', content: description };
      const info: TerminalInfoMeta = view.cwd !== undefined ? { terminal_id: toolCallId, cwd: view.cwd } : { terminal_id: toolCallId };
      return {
        sessionUpdate: 'tool_call',
        toolCallId,
        status: 'pending',
        title: view.title,
        kind: 'execute',
        content: [...description, { type: 'terminal', terminalId: toolCallId }],
        _meta: { terminal_info: info },
      };
    }
    case 'diff':
      return {
        sessionUpdate: 'tool_call',
        toolCallId,
        status: 'pending',
        title: displayTitle(view.title, view.diffs[0]?.path ?? view.locations?.[0]?.path, ctx.cwd),
        kind: 'edit',
        content: view.diffs.map(diffToAcp),
        locations: locationsToAcp(view.locations),
      };
    default:
      return assertNever(view, 'tool call view');
  }
}

export interface ResultOptions {
  /** The terminal output was already streamed live as the process wrote it (not on replay). */
  outputStreamed: boolean;
}

/** The `tool_call_update`s that complete a call; the last one carries the final status. */
export function resultToAcp(
  toolCallId: string,
  view: ToolResultView,
  status: Extract<ToolCallStatus, 'completed' | 'failed'>,
  ctx: BridgeContext,
  options: ResultOptions,
): ToolCallUpdateMessage[] {
  // Fields are set one by one rather than spread after a base (see callToAcp).
  const update: ToolCallUpdateMessage = { sessionUpdate: 'tool_call_update', toolCallId, status };
  switch (view.card) {
    case 'generic':
      if (view.title !== undefined) update.title = view.title;
      if (view.content !== undefined) update.content = view.content.map((content) => ({ type: 'content' as const, content }));
      return [update];
    case 'terminal': {
      if (view.title !== undefined) update.title = view.title;
      if (!ctx.terminalOutput) {
        update.content = [{ type: 'content', content: { type: 'text', text: consoleFallback(view) } }];
        return [update];
      }
      const exit: TerminalExitMeta = { terminal_id: toolCallId, exit_code: view.exitCode ?? null, signal: view.signal ?? null };
      update._meta = { terminal_exit: exit };
      return !options.outputStreamed && view.output ? [terminalOutputToAcp(toolCallId, view.output), update] : [update];
    }
    case 'diff':
      if (view.title !== undefined) update.title = displayTitle(view.title, view.diffs[0]?.path, ctx.cwd);
      update.content = view.diffs.map(diffToAcp);
      if (view.locations !== undefined) update.locations = locationsToAcp(view.locations);
      return [update];
    default:
      return assertNever(view, 'tool result view');
  }
}

/** Output to APPEND to a display terminal, streamed as the process writes it. */
export function terminalOutputToAcp(toolCallId: string, data: string): ToolCallUpdateMessage {
  const output: TerminalOutputMeta = { terminal_id: toolCallId, data };
  return { sessionUpdate: 'tool_call_update', toolCallId, _meta: { terminal_output: output } };
}

/** The `toolCall` of a `session/request_permission`: the whole call, as the client should show it. */
export function permissionToolCall(call: ToolCallMessage): ToolCallUpdate {
  const { sessionUpdate: _sessionUpdate, ...fields } = call;
  return fields;
}

/** Without display terminals, command output travels as a fenced ```console block. */
export function consoleFallback(view: TerminalResultView): string {
  const block = fenced(view.output ?? '', 'console');
  if (view.signal) return `${block}\nKilled by ${view.signal}`;
  if (view.exitCode !== undefined && view.exitCode !== 0) return `${block}\nExit code ${view.exitCode}`;
  return block;
}

function diffToAcp(diff: FileDiff): ToolCallContent {
  return { type: 'diff', path: diff.path, oldText: diff.oldText, newText: diff.newText };
}

function locationsToAcp(locations: FileLocation[] | undefined): ToolCallLocation[] {
  return (locations ?? []).map((l) => (l.line !== undefined ? { path: l.path, line: l.line } : { path: l.path }));
}
