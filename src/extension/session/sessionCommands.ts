import * as vscode from 'vscode';
import type { CommandTable } from '../base/commandTable';
import type { ToolCallState } from './model/toolCalls';
import type { AgentSessions, SessionRecord } from './agentSessions';
import type { SessionVerbs } from './sessionVerbs';

/** The commands on the open sessions: cancel, new, clear, open a tool call's card. */
export function sessionCommands(deps: {
  sessions: AgentSessions;
  verbs: SessionVerbs;
  /** Opens a card in its renderer (cards/cards.ts). */
  cards: { open(session: SessionRecord, call: ToolCallState): Promise<void> };
}): CommandTable {
  const { sessions, verbs } = deps;
  return {
    'acpNative.cancel': () => verbs.cancel(),
    'acpNative.newSession': async () => (await verbs.newSession()).state.sessionId,
    'acpNative.clearToolCalls': () => sessions.clear(),
    'acpNative.openToolCall': async (sessionId: unknown, toolCallId: unknown) => {
      const session = sessions.session(String(sessionId));
      const call = session?.state.toolCall(String(toolCallId));
      if (!session || !call) {
        void vscode.window.showWarningMessage('This tool call is no longer available.');
        return;
      }
      await deps.cards.open(session, call);
    },
  };
}
