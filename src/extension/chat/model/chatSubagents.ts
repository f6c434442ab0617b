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

/** The child's answer text, its end when long. */
function agentText(state: SessionState): string {
  let text = '';
  for (const entry of state.transcript) {
    if (entry.type === 'message' && entry.role === 'agent') text += (text ? '\n\n' : '') + entry.text;
  }
  return text.length <= MAX_SUBAGENT_TEXT ? text : `…${text.slice(-MAX_SUBAGENT_TEXT)}`;
}
