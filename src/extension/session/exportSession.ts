import * as vscode from 'vscode';
import { exportMarkdown } from './model/exportMarkdown';
import type { AgentSessions } from './agentSessions';
import type { SessionVerbs } from './sessionVerbs';

export interface SessionExportDeps {
  sessions: AgentSessions;
  verbs: SessionVerbs;
  /** A terminal panel's output as shown (client and display terminals alike). */
  terminalOutput(terminalId: string): string | undefined;
}

/**
 * A session as Markdown: the active one (else the newest) by default; one that is not open is
 * opened first (`session/load`), as Session History would, since only an open session has its
 * conversation and cards.
 */
export async function sessionMarkdown(deps: SessionExportDeps, sessionId?: string): Promise<string> {
  let session = sessionId === undefined ? (deps.sessions.active ?? deps.sessions.all.at(-1)) : deps.sessions.session(sessionId);
  if (!session && sessionId !== undefined) session = await deps.verbs.loadSession(sessionId);
  if (!session) throw new Error('There is no session to export.');
  const { state } = session;
  return exportMarkdown({
    sessionId: state.sessionId,
    title: state.title,
    transcript: state.transcript,
    toolCall: (id) => state.toolCall(id),
    terminalOutput: deps.terminalOutput,
  });
}

/** ACP: Export Session as Markdown — an untitled Markdown editor, so nothing is written until the user saves. */
export async function exportSessionCommand(deps: SessionExportDeps, sessionId?: string): Promise<void> {
  const content = await sessionMarkdown(deps, sessionId);
  const document = await vscode.workspace.openTextDocument({ language: 'markdown', content });
  await vscode.window.showTextDocument(document, { preview: false });
}
