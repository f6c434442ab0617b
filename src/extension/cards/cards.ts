import * as vscode from 'vscode';
import { assertNever } from '../../protocol/assertNever';
import { cardOf, type ToolCallState } from '../session/model/toolCalls';
import type { SessionRecord } from '../session/agentSessions';
import type { DiffEditors } from './diff/diffEditors';
import type { TerminalViews } from './terminal/terminalViews';
import type { ToolCallsTree } from './tree/toolCallsTree';

/**
 * The renderer dispatch: which renderer shows a card when the user opens it (a click in the tree
 * or the chat, the `acpNative.openToolCall` command). The extension's one switch over the card
 * kind, as the agent's bridge is on its side: a new kind breaks compilation here.
 */
export class CardRenderers {
  constructor(
    private readonly deps: { diffEditors: DiffEditors; terminalViews: TerminalViews; tree: ToolCallsTree },
  ) {}

  async open(session: SessionRecord, call: ToolCallState): Promise<void> {
    const card = cardOf(call);
    switch (card) {
      case 'diff':
        return this.deps.diffEditors.open(session, call);
      case 'terminal':
        if (call.terminalId === undefined || !this.deps.terminalViews.reveal(call.terminalId)) {
          void vscode.window.showInformationMessage('This terminal was closed.');
        }
        return;
      case 'generic':
        return this.deps.tree.revealCall(session.state.sessionId, call.id);
      default:
        return assertNever(card, 'card kind');
    }
  }
}
