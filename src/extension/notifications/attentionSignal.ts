import * as vscode from 'vscode';
import { Disposable } from '../base/lifecycle';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import { sessionTitle } from '../session/model/openSessions';
import { Attention, attentionMessage, parseNotifySetting, type AttentionKind } from './model/attention';

/**
 * The done / needs-you signal: when a turn ends or fails, or a question or form waits, in a session
 * that is not on screen (window unfocused, chat hidden, another session shown), a notification
 * naming the agent and the session with **Show**, and a badge on the ACP view container counting
 * the sessions waiting. `acpNative.notifications`: `whenAway` (default), `always`, `off`.
 * Questions already get their own notification while the chat is hidden (the permission service's),
 * so they add to the badge only.
 */
export class AttentionSignal extends Disposable {
  private readonly attention = new Attention();
  /** Sessions with a notification of ours open: a newer event does not add a second one. */
  private readonly open = new Set<string>();
  /** Questions and forms seen, by session: only a new one raises. */
  private questionsSeen = new Map<string, number>();

  constructor(
    private readonly deps: {
      sessions: AgentSessions;
      verbs: SessionVerbs;
      /** The chat: on screen and listening, and how to show a session there. */
      chat: { readonly showsQuestions: boolean; focus(): Promise<void>; readonly onDidBecomeReady: vscode.Event<void> };
      /** Open questions and forms of a session. */
      questions: { count(sessionId: string): number; readonly changes: readonly ((listener: () => void) => { dispose(): void })[] };
      /** Where the badge shows (a view of the ACP container). */
      badgeView: { badge?: vscode.ViewBadge | undefined };
    },
  ) {
    super();
    this._register(
      deps.verbs.onTurnEnded((session, outcome) => {
        if (outcome.kind === 'failed') this.raise(session, 'failed', outcome.message);
        // A cancel is the person's own doing: nothing to tell them.
        else if (outcome.stopReason !== 'cancelled') this.raise(session, 'done');
      }),
    );
    for (const change of deps.questions.changes) this._register(change(() => this.questionsChanged()));
    this._register(deps.sessions.onDidChangeSessions(() => this.clearShown()));
    this._register(vscode.window.onDidChangeWindowState(() => this.clearShown()));
    this._register(deps.chat.onDidBecomeReady(() => this.clearShown()));
  }

  /** How many sessions wait for the person (the badge's number). */
  get waiting(): number {
    return this.attention.count;
  }

  private setting() {
    return parseNotifySetting(vscode.workspace.getConfiguration('acpNative').get('notifications'));
  }

  private shownSessionId(): string | undefined {
    return (this.deps.sessions.active ?? this.deps.sessions.all.at(-1))?.state.sessionId;
  }

  private onScreen(sessionId: string): boolean {
    return vscode.window.state.focused && this.deps.chat.showsQuestions && this.shownSessionId() === sessionId;
  }

  private raise(session: SessionRecord, kind: AttentionKind, detail?: string): void {
    const sessionId = session.state.sessionId;
    const event = { sessionId, kind, agentName: session.agentName, title: sessionTitle({ title: session.state.title, transcript: session.state.transcript }), ...(detail ? { detail } : {}) };
    const notify = this.attention.raise(event, { setting: this.setting(), onScreen: this.onScreen(sessionId) });
    this.paintBadge();
    if (!notify || kind === 'question' || this.open.has(sessionId)) return;
    this.open.add(sessionId);
    const show = kind === 'failed' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(`ACP: ${attentionMessage(event)}`, 'Show').then(async (choice) => {
      this.open.delete(sessionId);
      if (choice !== 'Show' || !this.deps.sessions.session(sessionId)) return;
      this.deps.sessions.setActive(sessionId);
      await this.deps.chat.focus();
      this.clearShown();
    });
  }

  /**
   * A subagent's question counts for the session it belongs to: that is the one the chat shows
   * (with the child's block in it), so that is the one that waits, and is seen.
   */
  private questionsChanged(): void {
    const { sessions, questions } = this.deps;
    const next = new Map<string, number>();
    for (const record of sessions.topLevel) {
      const id = record.state.sessionId;
      const count = sessions.subtreeOf(id).reduce((sum, s) => sum + questions.count(s.state.sessionId), 0);
      if (count > 0) next.set(id, count);
      if (count > (this.questionsSeen.get(id) ?? 0)) this.raise(record, 'question');
    }
    this.questionsSeen = next;
  }

  /** The session on screen waits no more; closed sessions neither. */
  private clearShown(): void {
    let changed = false;
    for (const event of this.attention.events) {
      if (!this.deps.sessions.session(event.sessionId) || this.onScreen(event.sessionId)) changed = this.attention.seen(event.sessionId) || changed;
    }
    if (changed) this.paintBadge();
  }

  private paintBadge(): void {
    const count = this.attention.count;
    this.deps.badgeView.badge = count > 0 ? { value: count, tooltip: `${count} ACP session${count === 1 ? '' : 's'} waiting for you` } : undefined;
  }
}
