/**
 * A subagent's block in its parent's conversation (pure): built from what the parent knows of the
 * child (`SubagentRecord`) and the child's own session state, bounded (its latest rows, the end of
 * its text) so a child of thousands of calls costs its parent's chat a fixed size.
 */
import type { ChatSubagentItem, ChatSubagentTool } from '../../../protocol/chat';
import { kindIcon } from '../../cards/tree/model/treeModel';
import type { SessionState } from '../../session/model/sessionState';
import { activityLabel, subagentName, type SubagentRecord } from '../../session/model/subagents';
import { cardOf, type ToolCallState } from '../../session/model/toolCalls';
import type { MessageEntry } from '../../session/model/transcript';

/** A block shows the child's latest rows; the Tool Calls tree has all of them. */
export const MAX_SUBAGENT_ROWS = 20;
/** A block shows the end of the child's text. */
export const MAX_SUBAGENT_TEXT = 4_000;
/** Children of children show this deep; below, the tree has them. */
const MAX_DEPTH = 4;

/** The child sessions a block is built from. */
export interface SubagentLookup {
  /** The editor's session of a child `parent` announced as `childId` (undefined: not opened). */
  child(parent: SessionState, childId: string): { readonly sessionId: string; readonly state: SessionState } | undefined;
  callTitle(call: ToolCallState): string;
}

/** Moves whenever the block would show something else: the record's and the child subtree's changes. */
export function subagentRevision(parent: SessionState, record: SubagentRecord, lookup: SubagentLookup, depth = 0): number {
  const child = lookup.child(parent, record.childId);
  let revision = record.revision;
  if (!child) return revision;
  revision += child.state.revision;
  if (depth < MAX_DEPTH) for (const grandchild of child.state.subagents) revision += subagentRevision(child.state, grandchild, lookup, depth + 1);
  return revision;
}

export function subagentItem(parent: SessionState, record: SubagentRecord, lookup: SubagentLookup, depth = 0): ChatSubagentItem {
  const child = lookup.child(parent, record.childId);
  const state = child?.state;
  const calls = state?.toolCalls() ?? [];
  const shown = calls.slice(-MAX_SUBAGENT_ROWS);
  const tools: ChatSubagentTool[] = shown.map((call) => ({ toolCallId: call.id, title: lookup.callTitle(call), icon: kindIcon(call.kind, cardOf(call)), status: call.status }));
  const text = state ? agentText(state) : '';
  const prompt = record.prompt ?? state?.receivedMessage;
  const running = record.activity === 'running' || record.activity === 'requires_action';
  const children = state && depth < MAX_DEPTH ? state.subagents.map((r) => subagentItem(state, r, lookup, depth + 1)) : [];
  return {
    kind: 'subagent',
    sessionId: child?.sessionId ?? record.childId,
    title: subagentName(record),
    ...(record.description && record.title ? { description: record.description } : {}),
    activity: record.activity,
    state: activityLabel(record),
    ...(record.background ? { background: true as const } : {}),
    ...(record.cancellable && running && child ? { canStop: true as const } : {}),
    ...(prompt ? { prompt } : {}),
    ...(text ? { text } : {}),
    tools,
    ...(calls.length > shown.length ? { moreTools: calls.length - shown.length } : {}),
    ...(record.report ? { report: record.report } : {}),
    ...(record.toolsUsed ? { toolsUsed: record.toolsUsed } : {}),
    ...(record.collision ? { error: record.collision } : {}),
    ...(children.length ? { children } : {}),
  };
}

/** About how many bytes the block adds to a posted message. */
export function subagentBytes(item: ChatSubagentItem): number {
  let bytes = 128 + item.title.length + (item.prompt?.length ?? 0) + (item.text?.length ?? 0) + (item.report?.length ?? 0);
  for (const tool of item.tools) bytes += tool.title.length + tool.toolCallId.length + 48;
  for (const child of item.children ?? []) bytes += subagentBytes(child);
  return bytes;
}

/**
 * The agent messages found in a child's transcript so far: a block is rebuilt on every change of a
 * busy child, and scanning a transcript of thousands of tool rows each time made 10 children cost
 * their parent's chat 1.6× one session's calls; now each rebuild looks only at the new entries.
 */
const messagesSeen = new WeakMap<SessionState, { scanned: number; messages: MessageEntry[] }>();

/** The child's answer text, its end when long. */
function agentText(state: SessionState): string {
  const entries = state.transcript;
  let seen = messagesSeen.get(state);
  if (!seen) {
    seen = { scanned: 0, messages: [] };
    messagesSeen.set(state, seen);
  }
  for (; seen.scanned < entries.length; seen.scanned++) {
    const entry = entries[seen.scanned];
    if (entry?.type === 'message' && entry.role === 'agent') seen.messages.push(entry);
  }
  let text = '';
  for (let i = seen.messages.length - 1; i >= 0 && text.length <= MAX_SUBAGENT_TEXT; i--) {
    text = (seen.messages[i] as MessageEntry).text + (text ? `\n\n${text}` : '');
  }
  return text.length <= MAX_SUBAGENT_TEXT ? text : `…${text.slice(-MAX_SUBAGENT_TEXT)}`;
}
