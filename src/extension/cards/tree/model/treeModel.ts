/**
 * The Tool Calls tree as plain data (pure): which nodes exist, their stable ids, labels and
 * descriptions. The VS Code adapter turns these into TreeItems; tests and the API read them as is.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { toolStatusLabel } from '../../../../protocol/chat';
import { cardIcon, type CardKind, type ToolCallState } from '../../../session/model/toolCalls';

export type TreeNode =
  | { type: 'session'; id: string; sessionId: string }
  | { type: 'call'; id: string; sessionId: string; toolCallId: string }
  /** Older calls of a long session, `CALLS_PER_GROUP` at a time (`group`: 0 for the first ones). */
  | { type: 'callGroup'; id: string; sessionId: string; group: number }
  | { type: 'text'; id: string; sessionId: string; toolCallId: string; index: number; text: string }
  | { type: 'location'; id: string; sessionId: string; toolCallId: string; path: string; line?: number }
  | { type: 'rawInput'; id: string; sessionId: string; toolCallId: string; json: string }
  /** The files the agent changed in one turn (`turn`: its user message's index). */
  | { type: 'review'; id: string; sessionId: string; turn: number }
  | { type: 'reviewFile'; id: string; sessionId: string; turn: number; changeId: number; path: string };

export const MAX_LABEL_CHARS = 80;

export function sessionNode(sessionId: string): TreeNode {
  return { type: 'session', id: `s:${sessionId}`, sessionId };
}

export function reviewNode(sessionId: string, turn: number): TreeNode {
  return { type: 'review', id: `r:${sessionId}:${turn}`, sessionId, turn };
}

export function reviewFileNode(sessionId: string, turn: number, changeId: number, path: string): TreeNode {
  return { type: 'reviewFile', id: `r:${sessionId}:${turn}:${changeId}`, sessionId, turn, changeId, path };
}

export function callNode(sessionId: string, toolCallId: string): TreeNode {
  return { type: 'call', id: `c:${sessionId}:${toolCallId}`, sessionId, toolCallId };
}

export function callGroupNode(sessionId: string, group: number): TreeNode {
  return { type: 'callGroup', id: `g:${sessionId}:${group}`, sessionId, group };
}

/**
 * Calls listed directly under their session, at most; the older calls of a longer session fold
 * into collapsed groups of this many. The view re-fetches every child of an expanded node on each
 * refresh, and a session of 10,000 calls cost a third of a second of the extension host per
 * refresh; folded, a refresh fetches at most this many calls and one node per group. 100, not
 * 500: every re-fetched item is serialised and (in remote and browser VS Code) compressed by the
 * extension host, and a visible 10,000-call storm sent 3× the bytes with 500; a session of 10,000
 * calls is 199 rows instead of 519, and an opened group fits in a few screens. The newest 100
 * calls, usually the whole running turn, stay listed.
 */
export const CALLS_PER_GROUP = 100;

/**
 * How a session's `count` calls are laid out: `groups` collapsed groups of `CALLS_PER_GROUP`
 * (the calls `[g * CALLS_PER_GROUP, (g + 1) * CALLS_PER_GROUP)`), then the calls from
 * `firstListed` on, directly under the session. A session of up to `CALLS_PER_GROUP` calls has
 * no group.
 */
export function callLayout(count: number): { groups: number; firstListed: number } {
  const groups = count > 0 ? Math.floor((count - 1) / CALLS_PER_GROUP) : 0;
  return { groups, firstListed: groups * CALLS_PER_GROUP };
}

/** The group holding the call at `order` among `count` calls, or undefined when it is listed under the session. */
export function callGroupOf(order: number, count: number): number | undefined {
  return order < callLayout(count).firstListed ? Math.floor(order / CALLS_PER_GROUP) : undefined;
}

/**
 * The parent VS Code is told for a call node when it resolves a `reveal`: the session, the group
 * the call folded into, or nothing when the call or its session is gone. VS Code resolves a reveal
 * later than it was asked (after the refreshes before it), and resolves each unknown ancestor
 * against the children it last fetched: a closed session's node is not among them, and VS Code
 * logs "Cannot resolve tree item" for it; with no parent the reveal only fails, quietly, to the
 * caller. A call being followed that folded since is given the session, not its group: VS Code then
 * gives that reveal up instead of opening the group (and re-fetching it on every refresh).
 */
export function callParent(
  call: { readonly order: number; readonly count: number } | undefined,
  followed: boolean,
): { type: 'session' } | { type: 'callGroup'; group: number } | undefined {
  if (!call) return undefined;
  const group = callGroupOf(call.order, call.count);
  return group === undefined || followed ? { type: 'session' } : { type: 'callGroup', group };
}

/** "Tool calls 1–100": the label of a group (1-based, as the user counts). */
export function callGroupLabel(group: number): string {
  const first = group * CALLS_PER_GROUP + 1;
  return `Tool calls ${first.toLocaleString('en-US')}–${(first + CALLS_PER_GROUP - 1).toLocaleString('en-US')}`;
}

/** The children of a tool call: its text content, its locations, its raw input. */
export function callChildren(sessionId: string, call: ToolCallState): TreeNode[] {
  const base = `c:${sessionId}:${call.id}`;
  const nodes: TreeNode[] = [];
  call.content.forEach((item, index) => {
    const text = contentText(item);
    if (text !== undefined && text.trim()) {
      nodes.push({ type: 'text', id: `${base}:t${index}`, sessionId, toolCallId: call.id, index, text });
    }
  });
  call.locations.forEach((loc, index) => {
    nodes.push({
      type: 'location',
      id: `${base}:l${index}`,
      sessionId,
      toolCallId: call.id,
      path: loc.path,
      ...(loc.line != null ? { line: loc.line } : {}),
    });
  });
  if (call.rawInput !== undefined && !isEmptyObject(call.rawInput)) {
    nodes.push({ type: 'rawInput', id: `${base}:in`, sessionId, toolCallId: call.id, json: safeJson(call.rawInput) });
  }
  return nodes;
}

/**
 * Whether `callChildren` would return any node, without building them (no JSON of the raw input):
 * the tree asks this for every call on every refresh.
 */
export function hasCallChildren(call: ToolCallState): boolean {
  if (call.locations.length > 0) return true;
  if (call.rawInput !== undefined && !isEmptyObject(call.rawInput)) return true;
  return call.content.some((item) => contentText(item)?.trim());
}

/** Text of a plain content item; undefined for diffs, terminals, images. */
export function contentText(item: acp.ToolCallContent): string | undefined {
  if (item.type !== 'content') return undefined;
  const block = item.content;
  if (block.type === 'text') return block.text;
  if (block.type === 'resource_link') return block.uri;
  if (block.type === 'resource' && 'text' in block.resource) return block.resource.text;
  return undefined;
}

/**
 * A text's first meaningful line, shortened for a label: blank lines and Markdown code fences say
 * nothing (Claude's Read card is the file's text in a fence). " …" marks more meaningful lines.
 */
export function labelOf(text: string, max = MAX_LABEL_CHARS): string {
  const lines = text.split(/\r?\n/).filter((line) => line.trim());
  const meaningful = lines.filter((line) => !FENCE.test(line));
  // A text of fences only is labelled by them rather than by nothing.
  const shown = meaningful.length > 0 ? meaningful : lines;
  const first = (shown[0] ?? '').trim().replace(/\s+/g, ' ');
  if (first.length > max) return `${first.slice(0, max - 1)}…`;
  return shown.length > 1 ? `${first} …` : first;
}

/** A Markdown code fence line: three or more backticks or tildes, maybe an info string. */
const FENCE = /^\s*(`{3,}|~{3,})[^`]*$/;

/** The tree's word for a call's status: the chat's status chip (which the webview derives) says the same. */
export function statusLabel(status: acp.ToolCallStatus): string {
  return toolStatusLabel(status);
}

/** The codicon for a tool kind. */
export function kindIcon(kind: acp.ToolKind | undefined, card: CardKind): string {
  switch (kind) {
    case 'read':
      return 'book';
    case 'edit':
      return 'edit';
    case 'delete':
      return 'trash';
    case 'move':
      return 'arrow-swap';
    case 'search':
      return 'search';
    case 'execute':
      return 'terminal';
    case 'think':
      return 'lightbulb';
    case 'fetch':
      return 'globe';
    case 'switch_mode':
      return 'arrow-both';
    case 'other':
    case undefined:
      return cardIcon(card);
  }
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
