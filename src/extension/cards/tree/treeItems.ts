import * as vscode from 'vscode';
import * as path from 'node:path';
import { callGroupLabel, hasCallChildren, kindIcon, labelOf, statusLabel, type TreeNode } from './model/treeModel';
import type { FileChangeView } from '../../review/model/actionLog';
import { cardOf, cardOpens, type CardKind, type ToolCallState } from '../../session/model/toolCalls';
import type { SessionRecord } from '../../session/agentSessions';
import { callDisplayTitle, fileDisplayPath } from '../../workspace/titles';
import type { TitleContext } from '../../workspace/model/displayTitle';
import { sessionTitle } from '../../session/model/openSessions';
import { textDocUri } from './textDocuments';
import { keptSummary } from '../../partialApproval/model/hunkChoice';
import { activityLabel, subagentName, type SubagentRecord } from '../../session/model/subagents';

type NodeOf<T extends TreeNode['type']> = Extract<TreeNode, { type: T }>;

/** The Tool Calls tree's items, one builder per kind of node (`ToolCallsTree.item` picks). */
export function sessionItem(node: NodeOf<'session'>, record: SessionRecord | undefined): vscode.TreeItem {
  const state = record?.state;
  // Titled as in the chat's switcher (the agent's title, else the first prompt); several agents at
  // once, so each node also says whose session it is.
  const titled = state && (state.title || state.transcript.some((e) => e.type === 'message' && e.role === 'user'));
  const label = titled ? sessionTitle(state) : `${record?.agentName ?? 'Agent'} · ${path.basename(state?.cwd ?? '')}`;
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Expanded);
  item.id = node.id;
  const doing = record?.busy ? 'working' : `${state?.toolCalls().length ?? 0} tool calls`;
  item.description = titled && record ? `${record.agentName} · ${doing}` : doing;
  item.iconPath = new vscode.ThemeIcon(record?.busy ? 'loading~spin' : 'comment-discussion');
  item.contextValue = 'acpNative.session';
  return item;
}

/**
 * A subagent's session, under its parent: its name, its live state (running, needs you, idle with
 * its stop reason, in the background), its calls beneath. Collapsed: a parent's tree stays folded.
 */
export function subagentItem(node: NodeOf<'session'>, record: SessionRecord | undefined, subagent: SubagentRecord): vscode.TreeItem {
  const item = new vscode.TreeItem(subagentName(subagent), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  const calls = record?.state.toolCalls().length ?? 0;
  item.description = `subagent · ${subagent.collision ? 'not opened' : activityLabel(subagent)} · ${calls} tool ${calls === 1 ? 'call' : 'calls'}`;
  const icon = subagent.collision ? 'error' : subagent.activity === 'requires_action' ? 'bell-dot' : subagent.activity === 'running' ? 'loading~spin' : 'hubot';
  item.iconPath = new vscode.ThemeIcon(icon);
  item.tooltip = [subagentName(subagent), subagent.description, subagent.collision].filter(Boolean).join('\n');
  item.contextValue = subagent.cancellable && (subagent.activity === 'running' || subagent.activity === 'requires_action') ? 'acpNative.subagent.running' : 'acpNative.subagent';
  return item;
}

export function callItem(node: TreeNode, call: ToolCallState, ctx: TitleContext): vscode.TreeItem {
  const card = cardOf(call);
  const item = new vscode.TreeItem(
    callDisplayTitle(call, ctx),
    hasCallChildren(call) ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = node.id;
  item.iconPath = statusIcon(call, card);
  const loc = call.locations[0];
  item.description = loc ? `${fileDisplayPath(loc.path, ctx)}${loc.line != null ? `:${loc.line}` : ''}` : statusLabel(call.status);
  // The tooltip comes from `resolveTreeItem`, on hover.
  item.contextValue = `acpNative.toolCall.${card}`;
  // A card that opens only the tree has nothing more to open from it.
  if (cardOpens(card) !== 'tree') {
    item.command = { command: 'acpNative.openToolCall', title: 'Open', arguments: [node.sessionId, call.id] };
  }
  return item;
}

/** A call's tooltip, built on hover. */
export function callTooltip(call: ToolCallState): vscode.MarkdownString {
  return new vscode.MarkdownString(`**${escapeMd(callDisplayTitle(call))}**\n\n${call.kind ?? 'tool'} · ${statusLabel(call.status)}`);
}

export function callGroupItem(node: NodeOf<'callGroup'>): vscode.TreeItem {
  const item = new vscode.TreeItem(callGroupLabel(node.group), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = node.id;
  item.iconPath = new vscode.ThemeIcon('history');
  item.description = 'earlier calls';
  item.contextValue = 'acpNative.toolCallGroup';
  return item;
}

export function textItem(node: NodeOf<'text'>): vscode.TreeItem {
  const item = new vscode.TreeItem(labelOf(node.text), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.iconPath = new vscode.ThemeIcon('note');
  item.tooltip = node.text.length > 2000 ? `${node.text.slice(0, 2000)}…` : node.text;
  item.command = {
    command: 'vscode.open',
    title: 'Open Full Text',
    arguments: [textDocUri({ sessionId: node.sessionId, toolCallId: node.toolCallId, field: 'content', index: node.index }, 'output')],
  };
  item.contextValue = 'acpNative.text';
  return item;
}

export function locationItem(node: NodeOf<'location'>): vscode.TreeItem {
  const where = node.line != null ? `${fileDisplayPath(node.path)}:${node.line}` : fileDisplayPath(node.path);
  const item = new vscode.TreeItem(where, vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.resourceUri = vscode.Uri.file(node.path);
  item.iconPath = new vscode.ThemeIcon('location');
  const line = Math.max(0, (node.line ?? 1) - 1);
  item.command = {
    command: 'vscode.open',
    title: 'Open Location',
    arguments: [vscode.Uri.file(node.path), { selection: new vscode.Range(line, 0, line, 0), preview: true }],
  };
  item.contextValue = 'acpNative.location';
  return item;
}

/** A turn's changes in the action log: `summary` says what changed ("2 files, +3 −1"). */
export function reviewItem(node: NodeOf<'review'>, views: readonly FileChangeView[], summary: string): vscode.TreeItem {
  const pending = views.filter((v) => v.status === 'pending' || v.status === 'partial').length;
  const item = new vscode.TreeItem(`Changes of prompt ${node.turn + 1}`, vscode.TreeItemCollapsibleState.Expanded);
  item.id = node.id;
  item.description = `${summary}${pending ? ` · ${pending} to review` : ''}`;
  item.iconPath = new vscode.ThemeIcon('git-compare');
  item.command = { command: 'acpNative.reviewChanges', title: 'Review Changes', arguments: [node] };
  item.contextValue = pending > 0 ? 'acpNative.review.pending' : 'acpNative.review';
  return item;
}

export function reviewFileItem(node: NodeOf<'reviewFile'>, view: FileChangeView | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(fileDisplayPath(node.path), vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.resourceUri = vscode.Uri.file(node.path);
  item.description = view ? fileDescription(view) : 'gone';
  if (view?.reason) item.tooltip = view.reason;
  item.command = { command: 'acpNative.review.openFile', title: 'Compare', arguments: [node] };
  const reviewable = view?.status === 'pending' || view?.status === 'partial';
  // `.undone`: it has undone hunks to re-apply (Re-apply Undone Hunks). A file over 2 MB has none to re-apply.
  const reapplicable = view !== undefined && !view.wholeFile && view.status !== 'no-undo' && view.change.hunkStates.includes('undone');
  item.contextValue = `acpNative.reviewFile.${reviewable ? 'pending' : (view?.status ?? 'gone')}${reapplicable ? '.undone' : ''}`;
  return item;
}

export function rawInputItem(node: NodeOf<'rawInput'>): vscode.TreeItem {
  const item = new vscode.TreeItem('Input', vscode.TreeItemCollapsibleState.None);
  item.id = node.id;
  item.description = labelOf(node.json.replace(/\s+/g, ' '), 60);
  item.iconPath = new vscode.ThemeIcon('json');
  item.tooltip = node.json.length > 2000 ? `${node.json.slice(0, 2000)}…` : node.json;
  item.command = {
    command: 'vscode.open',
    title: 'Open Input',
    arguments: [textDocUri({ sessionId: node.sessionId, toolCallId: node.toolCallId, field: 'rawInput' }, 'input')],
  };
  return item;
}

function statusIcon(call: ToolCallState, card: CardKind): vscode.ThemeIcon {
  switch (call.status) {
    case 'pending':
    case 'in_progress':
      return new vscode.ThemeIcon('loading~spin');
    case 'failed':
      return new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed'));
    case 'completed':
      return new vscode.ThemeIcon(kindIcon(call.kind, card), new vscode.ThemeColor('testing.iconPassed'));
  }
}

/** "+3 −1 · modified", "created · changed by a command", "no undo: …". */
function fileDescription(view: FileChangeView): string {
  if (view.status === 'no-undo') return `${view.change.source === 'watcher' ? 'changed by a command · ' : ''}${view.reason ?? 'no undo'}`;
  const what = `${view.created ? 'created' : view.deleted ? 'deleted' : view.wholeFile ? 'changed' : `+${view.added} −${view.removed}`}${view.wholeFile ? ' · over 2 MB: undo as a whole file, no hunks' : ''}`;
  const by = view.change.source === 'watcher' ? ' · changed by a command' : '';
  const kept = view.change.hunkStates.filter((s) => s === 'kept').length;
  // An edit approved in part at its question: its kept hunks kept, the others undone.
  const status = view.status === 'pending' ? '' : view.status === 'partial' && kept > 0 ? ` · ${keptSummary(kept, view.hunks.length)}` : ` · ${view.status}`;
  return `${what}${by}${status}`;
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
