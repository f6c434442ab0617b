import * as vscode from 'vscode';
import type { AgentSessions } from '../session/agentSessions';
import type { SessionVerbs } from '../session/sessionVerbs';
import type { PromptQueues } from '../queue/promptQueues';
import type { Agents } from '../agents/agents';
import type { Config } from '../config';
import { errorMessage, type Logger } from '../base/log';
import type { PermissionService } from '../permissions/permissionService';
import type { PermissionQuestion } from '../permissions/model/permissionRequests';
import type { ElicitationService } from '../forms/elicitationService';
import { WorkspaceFiles } from '../workspace/workspaceFiles';
import { SendToChat } from './sendToChat';
import { Disposable } from '../base/lifecycle';
import type { ToolCallsTree } from '../cards/tree/toolCallsTree';
import { pickAgent, pickAgentForSession, type AddedAgentList } from './agentPicker';
import { ChatActions } from './chatActions';
import { ChatView } from './chatView';
import type { WindowPacing } from '../pacing/windowPacing';
import type { ChatPanel } from './chatPanel';
import type { Probes } from '../base/probes';
import { FollowAlong } from './followAlong';
import type { SessionHistory } from './sessionHistory';
import { ChatStatusBar } from './statusBar';
import { EditAndResend, type ResendRestore } from './editAndResend';
import { pickFromHistory, type HistoryPickEntry } from './historyPicker';
import { historyTitle } from './model/historySearch';

/** The picker's Export as Markdown: the command's untitled editor (it says what went wrong). */
async function exportFromHistory(sessionId: string): Promise<void> {
  try {
    await vscode.commands.executeCommand('acpNative.exportSession', sessionId);
  } catch (error) {
    void vscode.window.showErrorMessage(`ACP: could not export the session: ${errorMessage(error)}`);
  }
}

type EarlierSession = { sessionId: string; title?: string | null; updatedAt?: string | null };

/**
 * Where a person talks to the agent: the Chat view, its status-bar item, the session history,
 * the agent picker and follow-along. The context object owns one of these.
 */
export class Chat extends Disposable {
  readonly view: ChatView;
  /** The Chat view's webview: on screen, focus, messages. */
  readonly panel: ChatPanel;
  readonly actions: ChatActions;
  readonly history: SessionHistory;
  readonly followAlong: FollowAlong;
  readonly files: WorkspaceFiles;
  readonly send: SendToChat;
  readonly resend: EditAndResend;

  constructor(
    private readonly deps: {
      panel: ChatPanel;
      probes?: Probes;
      pacing?: WindowPacing;
      sessions: AgentSessions;
      verbs: SessionVerbs;
      queues: PromptQueues;
      agents: Agents;
      permissions: PermissionService;
      /** How many hunks a question's edit offers (partial approval). */
      hunks?: { hunkCount(question: PermissionQuestion): number | undefined };
      elicitations: ElicitationService;
      tree: ToolCallsTree;
      config: Config;
      log: Logger;
      registry?: AddedAgentList;
      /** The action log's per-turn summaries, for "Restore to before this prompt" on user messages. */
      turns?: { turnChanges(sessionId: string): (turn: number) => string | undefined; onDidChange: vscode.Event<string> };
      /** Edit & resend's restore to before the edited message. */
      restore?: ResendRestore;
      /** The sessions' recorded conversations: searched in the history, forgotten on Delete. */
      journals?: { textOf(sessionId: string): Promise<string | undefined>; forget(sessionId: string): void };
      /** The sessions seen in this workspace (the session verbs read which agent each was with). */
      history: SessionHistory;
    },
  ) {
    super();
    const { panel, sessions, permissions, elicitations, tree, config, log, turns } = deps;
    this.panel = panel;
    this.files = this._register(new WorkspaceFiles(log));
    this.history = deps.history;
    this.resend = new EditAndResend({ sessions, verbs: deps.verbs, history: this.history, log, ...(deps.restore ? { restore: deps.restore } : {}), promptMaxBytes: () => config.promptMaxBytes });
    this.actions = this._register(
      new ChatActions({ sessions, verbs: deps.verbs, queues: deps.queues, agents: deps.agents, permissions, tree, history: this.history, resend: this.resend, config, registry: deps.registry, elicitations, files: this.files, panel }),
    );
    this.view = this._register(
      new ChatView({ panel, probes: deps.probes, pacing: deps.pacing, sessions, queues: deps.queues, permissions, elicitations, actions: this.actions, log, ...(turns ? { turns } : {}), ...(deps.hunks ? { hunks: deps.hunks } : {}) }),
    );
    this.send = new SendToChat({ actions: this.actions, panel });
    this._register(new ChatStatusBar(sessions, permissions.requests, elicitations));
    this.followAlong = this._register(new FollowAlong({ sessions, config, probes: deps.probes }));
  }

  /** The agent's sessions (`session/list`), else, or when listing fails, those recorded here. */
  async earlierSessions(): Promise<EarlierSession[]> {
    let entries: EarlierSession[];
    try {
      entries = (await this.deps.verbs.listSessions()) ?? this.history.all();
    } catch (error) {
      this.deps.log.warn(`session/list failed, showing the sessions recorded here: ${errorMessage(error)}`);
      entries = this.history.all();
    }
    // An edited conversation's branches say which is which.
    return entries.map((s) => ({ ...s, title: this.history.titled(s.sessionId, s.title ?? undefined) ?? s.title ?? null }));
  }

  /**
   * **ACP: Session History**: the agent's sessions (`session/list`), else those recorded here, in
   * a quick pick that searches their titles and recorded conversations (`initialQuery` typed in
   * it already), with Delete and Export as Markdown on each; opens the one picked with its
   * conversation and cards (`loadSession`: resumed from the record here, else loaded).
   */
  async showHistory(initialQuery?: string): Promise<string | undefined> {
    const { sessions, verbs, journals } = this.deps;
    const recorded = this.history.all();
    const earlier = await this.earlierSessions();
    if (earlier.length === 0) {
      void vscode.window.showInformationMessage('ACP: no earlier sessions in this workspace.');
      return undefined;
    }
    const titleOf = (id: string) => recorded.find((r) => r.sessionId === id)?.title;
    const texts = await Promise.all(earlier.map((s) => journals?.textOf(s.sessionId)));
    const open = new Set(sessions.topLevel.map((s) => s.state.sessionId));
    const entries: HistoryPickEntry[] = earlier.map((s, i) => ({
      sessionId: s.sessionId,
      title: historyTitle(s.title, titleOf(s.sessionId)),
      updatedAt: s.updatedAt ?? undefined,
      open: open.has(s.sessionId),
      text: texts[i],
    }));
    const pick = await pickFromHistory(entries, { delete: (entry) => this.deleteFromHistory(entry), export: (entry) => exportFromHistory(entry.sessionId) }, initialQuery);
    if (!pick) return undefined;
    await verbs.loadSession(pick.sessionId);
    await this.panel.focus();
    return pick.sessionId;
  }

  /**
   * Deletes a session: closed first when open, `session/delete` when its agent advertises it, and
   * always forgotten here (the history, its recorded conversation and its kept queue). When the
   * agent refuses, it is forgotten all the same and the error says so.
   */
  async deleteSession(sessionId: string): Promise<void> {
    // Read before the delete: an open session's record, which names the agent's id, goes with it.
    const owner = this.deps.verbs.ownerOf(sessionId);
    let refused: unknown;
    try {
      await this.deps.verbs.deleteSession(sessionId);
    } catch (error) {
      refused = error;
    }
    await this.history.forget(sessionId);
    this.deps.journals?.forget(sessionId);
    await this.deps.queues.forgetStored(owner.agentKey, owner.agentSessionId);
    if (refused !== undefined) {
      this.deps.log.warn(`Session ${sessionId}: the agent did not delete it (${errorMessage(refused)}); it is forgotten in this workspace.`);
      throw new Error(`The session is gone from this workspace's history, but its agent did not delete its own copy: ${errorMessage(refused)}`);
    }
  }

  /** The picker's Delete: asks first (modal); true once it is deleted. */
  private async deleteFromHistory(entry: HistoryPickEntry): Promise<boolean> {
    const consequence = entry.open ? 'It is open: it closes, and a running turn is cancelled. ' : '';
    const answer = await vscode.window.showWarningMessage(
      `Delete the session "${entry.title}"?`,
      { modal: true, detail: `${consequence}Its agent deletes its copy when it can, and this workspace forgets it and its recorded conversation. This cannot be undone.` },
      'Delete',
    );
    if (answer !== 'Delete') return false;
    try {
      await this.deleteSession(entry.sessionId);
    } catch (error) {
      void vscode.window.showWarningMessage(errorMessage(error));
    }
    return true;
  }

  /** **New Session with Agent…**: the agent picked starts (if needed) beside those running. */
  newSessionWithAgent(): Promise<string | undefined> {
    return pickAgentForSession({ config: this.deps.config, sessions: this.deps.sessions, verbs: this.deps.verbs, agents: this.deps.agents, registry: this.deps.registry });
  }

  chooseAgent(): Promise<void> {
    return pickAgent({ config: this.deps.config, verbs: this.deps.verbs, registry: this.deps.registry });
  }
}
