import * as vscode from 'vscode';
import type { CommandTable } from '../base/commandTable';
import type { ToolCallState } from './model/toolCalls';
import type { AgentSessions, SessionRecord } from './agentSessions';
import type { SessionVerbs } from './sessionVerbs';
import { exportSessionCommand } from './exportSession';

/** The commands on the open sessions: cancel, new, clear, export, open a tool call's card. */
export function sessionCommands(deps: {
  sessions: AgentSessions;
  verbs: SessionVerbs;
  /** Opens a card in its renderer (cards/cards.ts). */
  cards: { open(session: SessionRecord, call: ToolCallState): Promise<void> };
  terminalOutput(terminalId: string): string | undefined;
}): CommandTable {
  const { sessions, verbs } = deps;
  return {
    'acpNative.cancel': () => verbs.cancel(),
    'acpNative.newSession': async () => (await verbs.newSession()).state.sessionId,
    'acpNative.clearToolCalls': () => sessions.clear(),
    'acpNative.exportSession': (target: unknown) => exportSessionCommand({ sessions, verbs, terminalOutput: deps.terminalOutput }, sessionIdOf(target)),
    // From a subagent's node in the Tool Calls tree (or its session id).
    'acpNative.stopSubagent': (target: unknown) => verbs.cancel(sessionIdOf(target)),
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

/** A command's session: its id, or a tree node that names it. */
export function sessionIdOf(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  const id = (target as { sessionId?: unknown } | undefined)?.sessionId;
  return typeof id === 'string' ? id : undefined;
}
