import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import type { SessionHistory } from './sessionHistory';
import { errorMessage, type Logger } from '../base/log';
import { branchNotes, CONTEXT_MAX_CHARS, contextPrompt, forkPointOf, historySteps, resendRoute, userMessageIndex, type ResendRoute } from '../session/model/resend';
import { sessionTitle } from '../session/model/openSessions';

/** How long a running turn may take to end after its cancel before Edit & resend gives up (nothing changed). */
const CANCEL_WAIT_MS = 15_000;

/** The workspace part of Edit & resend: "Restore to before this prompt", asking first or not. */
export interface ResendRestore {
  /** Asks (listing the files) and restores: false when the person said no. */
  ask(sessionId: string, turn: number, wording: { title: string; button: string; then: string }): Promise<boolean>;
  /** Restores without asking (the API). */
  restore(sessionId: string, turn: number): Promise<unknown>;
}

export interface ResendOptions {
  /** Ask before cancelling a running turn and before restoring (the chat); the API does not. */
  readonly ask: boolean;
}

/**
 * **Edit & resend** on a user message: the workspace goes back to before it (Restore to before
 * this prompt, asking first), then the conversation goes on from there with the edited text in
 * a new branch the chat shows: `session/fork` cut at the agent's message before it when the
 * agent forks at a message, else a new session of the same agent whose first prompt carries the
 * earlier conversation. The old session stays as it was (open, and in Session History, labelled).
 * A running turn is cancelled first (the chat asks); with the question declined nothing changes.
 */
export class EditAndResend {
  private readonly running = new Set<string>();

  constructor(
    private readonly deps: {
      sessions: AgentSessions;
      verbs: SessionVerbs;
      history: SessionHistory;
      log: Logger;
      restore?: ResendRestore;
      /** `acpNative.prompt.maxBytes`: the context prompt stays well under it. */
      promptMaxBytes?: () => number;
    },
  ) {}

  /** Returns the new branch's session id once its first turn ended; undefined when the person said no. */
  async resend(sessionId: string, turn: number, text: string, options: ResendOptions): Promise<string | undefined> {
    // A second click while the first one asks or restores would branch twice.
    if (this.running.has(sessionId)) throw new Error('Edit & resend of this session is already under way.');
    this.running.add(sessionId);
    try {
      return await this.resendOnce(sessionId, turn, text, options);
    } finally {
      this.running.delete(sessionId);
    }
  }

  private async resendOnce(sessionId: string, turn: number, text: string, options: ResendOptions): Promise<string | undefined> {
    const { sessions, verbs } = this.deps;
    const session = sessions.session(sessionId);
    if (!session) throw new Error(`There is no open session ${sessionId}.`);
    if (session.parent) throw new Error("A subagent's messages come from its parent: edit the parent's message instead.");
    if (!text.trim()) throw new Error('Nothing to send: the edited message is empty.');
    if (userMessageIndex(session.state.transcript, turn) < 0) throw new Error(`This session has no prompt ${turn + 1}.`);
    if (session.busy) {
      if (options.ask && !(await this.askToStop(session, turn))) return undefined;
      // Listening before the cancel: the turn's end (its end checkpoint taken) cannot slip past.
      const ended = this.turnEnded(session);
      try {
        await verbs.cancel(sessionId);
      } catch (error) {
        // Not waited for any more: its timeout must not reject unheard later.
        ended.catch(() => undefined);
        throw error;
      }
      await ended;
    }
    if (options.ask) {
      const restored = await this.deps.restore?.ask(sessionId, turn, {
        title: `Edit & resend from prompt ${turn + 1}?`,
        button: 'Restore and Resend',
        then: 'Then the edited message is sent in a new branch of the conversation; this one stays in Session History.',
      });
      if (restored === false) return undefined;
    } else {
      await this.deps.restore?.restore(sessionId, turn);
    }
    const route = resendRoute({ turn, fork: session.connection.forkSupport, forkPoint: forkPointOf(session.state.transcript, turn), agentName: session.agentName });
    const branch = await this.branch(session, turn, text, route);
    const notes = branchNotes(turn);
    await this.deps.history.note(sessionId, notes.before);
    await this.deps.history.note(branch.record.state.sessionId, notes.after);
    this.deps.log.info(`Edit & resend: session ${sessionId} from prompt ${turn + 1} goes on in ${branch.record.state.sessionId} (${branch.how}).`);
    await verbs.prompt(branch.sent, branch.record.state.sessionId, { shown: [{ type: 'text', text }] });
    return branch.record.state.sessionId;
  }

  /** The new branch, shown in the chat, with the conversation before the edited message in it. */
  private async branch(session: SessionRecord, turn: number, text: string, route: ResendRoute): Promise<{ record: SessionRecord; sent: acp.ContentBlock[]; how: string }> {
    const { verbs } = this.deps;
    const plain: acp.ContentBlock[] = [{ type: 'text', text }];
    switch (route.kind) {
      case 'fresh':
        return { record: await verbs.newSession(session.agentKey), sent: plain, how: 'a new session' };
      case 'fork':
        try {
          const record = await verbs.forkSession(session.state.sessionId, route.messageId);
          this.copyHistory(session, record, turn, true);
          this.deps.sessions.show(record);
          return { record, sent: plain, how: `session/fork at message ${route.messageId}` };
        } catch (error) {
          const reason = `${session.agentName} refused session/fork (${errorMessage(error)})`;
          this.deps.log.warn(`Edit & resend: ${reason}; going on in a new session with the conversation as context.`);
          void vscode.window.showWarningMessage(`ACP: ${reason}. The edited message goes to a new session, with the conversation before it as context.`);
          return this.withContext(session, turn, text, reason);
        }
      case 'context':
        return this.withContext(session, turn, text, route.reason);
      default:
        return route satisfies never;
    }
  }

  private async withContext(session: SessionRecord, turn: number, text: string, reason: string): Promise<{ record: SessionRecord; sent: acp.ContentBlock[]; how: string }> {
    // Shown once it holds the history: the chat opens it whole, at its newest rows.
    const record = await this.deps.verbs.newSession(session.agentKey, { show: false });
    this.copyHistory(session, record, turn, false);
    record.state.apply({
      sessionUpdate: 'notice',
      severity: 'info',
      title: `Continued from “${sessionTitle(session.state)}” before prompt ${turn + 1}`,
      description: `${reason}: the conversation before it went to the agent as context with the edited message.`,
    });
    record.state.flushNow();
    this.deps.sessions.show(record);
    // A character may take up to 4 bytes on the wire (UTF-8, JSON escapes): the bound in characters.
    const limit = this.deps.promptMaxBytes?.();
    const maxChars = limit === undefined ? CONTEXT_MAX_CHARS : Math.max(0, Math.min(CONTEXT_MAX_CHARS, Math.floor(limit / 4) - text.length - 1000));
    const prompt = contextPrompt({ entries: session.state.transcript, turn, text, toolCall: (id) => session.state.toolCall(id), maxChars });
    return { record, sent: [{ type: 'text', text: prompt }], how: `a new session with the conversation as context: ${reason}` };
  }

  /** The old session's conversation before the edited message, as history in the branch (no diff opens, no action log). */
  private copyHistory(from: SessionRecord, to: SessionRecord, turn: number, keepMessageIds: boolean): void {
    const steps = historySteps({ entries: from.state.transcript, turn, toolCall: (id) => from.state.toolCall(id), keepMessageIds });
    to.loading = true;
    const release = to.state.holdChanges();
    try {
      for (const step of steps) {
        if (step.kind === 'prompt') to.state.recordPrompt(step.blocks);
        else to.state.apply(step.update);
      }
      to.state.endTurn();
    } finally {
      release();
      to.loading = false;
    }
    to.state.flushNow();
  }

  private async askToStop(session: SessionRecord, turn: number): Promise<boolean> {
    const answer = await vscode.window.showWarningMessage(
      `${session.agentName} is still working. Stop its turn and edit & resend from prompt ${turn + 1}?`,
      { modal: true, detail: 'The running turn is cancelled first; then you are asked about the files to restore.' },
      'Stop and Continue',
    );
    return answer === 'Stop and Continue';
  }

  /** Resolves when the session's cancelled turn has ended; throws (nothing changed yet) when it will not. */
  private turnEnded(session: SessionRecord): Promise<void> {
    if (!session.busy) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error(`${session.agentName} did not end its turn within ${CANCEL_WAIT_MS / 1000} s of the cancel; nothing was restored or sent.`));
      }, CANCEL_WAIT_MS);
      const listener = this.deps.verbs.onTurnEnded((ended) => {
        if (ended !== session) return;
        clearTimeout(timer);
        listener.dispose();
        resolve();
      });
    });
  }
}
