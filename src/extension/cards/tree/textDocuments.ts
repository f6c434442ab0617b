import * as vscode from 'vscode';
import { contentText } from './model/treeModel';
import type { AgentSessions } from '../../session/agentSessions';
import { Disposable } from '../../base/lifecycle';

export const TEXT_SCHEME = 'acp-native-text';

/** Which text of a tool call a document shows: a content item's text, or the raw input. */
export type TextDocKey = { sessionId: string; toolCallId: string; field: 'content'; index: number } | { sessionId: string; toolCallId: string; field: 'rawInput' };

export function textDocUri(key: TextDocKey, name: string): vscode.Uri {
  const query = new URLSearchParams({ session: key.sessionId, call: key.toolCallId, field: key.field });
  if (key.field === 'content') query.set('index', String(key.index));
  const file = key.field === 'rawInput' ? `${name}.json` : `${name}.md`;
  return vscode.Uri.from({ scheme: TEXT_SCHEME, path: `/${file.replace(/[/\\]/g, '_')}`, query: query.toString() });
}

/**
 * Read-only documents with the full text of a tool call's content or raw input, opened from the
 * tree where labels only show the first line.
 */
export class ToolTextDocumentProvider extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(private readonly sessions: AgentSessions) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(TEXT_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const q = new URLSearchParams(uri.query);
    const call = this.sessions.session(q.get('session') ?? '')?.state.toolCall(q.get('call') ?? '');
    if (!call) return 'ACP Native: this tool call is no longer available.';
    if (q.get('field') === 'rawInput') return JSON.stringify(call.rawInput, null, 2) ?? '';
    const item = call.content[Number(q.get('index'))];
    return (item && contentText(item)) ?? 'ACP Native: this content is no longer part of the tool call.';
  }
}
