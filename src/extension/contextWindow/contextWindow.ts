import * as vscode from 'vscode';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import { COMPACT_COMMAND } from '../chat/model/contextMeter';
import { SUMMARY_ATTACHMENT, SUMMARY_REQUEST, answerAfter, carriedSummary } from './model/summary';

/**
 * What the context meter offers: **Compact** (the agent's own `/compact`) and **New session from
 * summary** (a new session with the same agent whose first prompt carries the last compaction
 * summary, or, without one, a summary the old session is asked for first).
 */
export class ContextWindow {
  constructor(
    private readonly deps: {
      sessions: AgentSessions;
      verbs: SessionVerbs;
      /** The chat's attachments (they go with the next prompt) and its prompt box. */
      chat: { attachContext(name: string, text: string): void; focus(): Promise<void> };
    },
  ) {}

  /** Sends `/compact` to a session (the active one by default), when its agent offers it. */
  async compact(sessionId?: string): Promise<void> {
    const session = this.sessionOf(sessionId);
    if (!session.state.availableCommands.some((c) => c.name === COMPACT_COMMAND)) {
      throw new Error(`${session.agentName} offers no /${COMPACT_COMMAND} command.`);
    }
    await this.deps.verbs.prompt(`/${COMPACT_COMMAND}`, session.state.sessionId);
  }

  /** Returns the new session's id. */
  async newSessionFromSummary(sessionId?: string): Promise<string> {
    const session = this.sessionOf(sessionId);
    const summary = session.state.sessionEvents.lastSummary ?? (await this.askForSummary(session));
    const created = await this.deps.verbs.newSession(session.agentKey);
    this.deps.chat.attachContext(SUMMARY_ATTACHMENT, carriedSummary(summary));
    await this.deps.chat.focus();
    return created.state.sessionId;
  }

  private async askForSummary(session: SessionRecord): Promise<string> {
    if (session.busy) throw new Error('The agent is still working on the last prompt; wait for it or cancel it first.');
    const promptIndex = session.state.transcript.length;
    const stop = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Asking the agent for a summary…' }, () =>
      this.deps.verbs.prompt(SUMMARY_REQUEST, session.state.sessionId),
    );
    const answer = answerAfter(session.state.transcript, promptIndex);
    if (stop === 'cancelled' || !answer) throw new Error(`${session.agentName} gave no summary${stop === 'cancelled' ? ' (cancelled)' : ''}; no new session was started.`);
    return answer;
  }

  private sessionOf(sessionId: string | undefined): SessionRecord {
    const session = sessionId ? this.deps.sessions.session(sessionId) : this.deps.sessions.active;
    if (!session) throw new Error(sessionId ? `There is no open session ${sessionId}.` : 'There is no active session.');
    return session;
  }
}
