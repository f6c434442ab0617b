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
import { SessionHistory } from './sessionHistory';
import { ChatStatusBar } from './statusBar';
import { EditAndResend, type ResendRestore } from './editAndResend';

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
      extensionContext: vscode.ExtensionContext;
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
    },
  ) {
    super();
    const { extensionContext, panel, sessions, permissions, elicitations, tree, config, log, turns } = deps;
    this.panel = panel;
    this.files = this._register(new WorkspaceFiles(log));
    this.history = this._register(new SessionHistory(extensionContext.workspaceState, sessions));
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
   * Lists the agent's sessions (`session/list`), else those recorded here, and loads the one
   * picked (`session/load`): its conversation and cards come back.
   */
  async showHistory(): Promise<string | undefined> {
    const { sessions, verbs } = this.deps;
    const recorded = this.history.all();
    const entries = await this.earlierSessions();
    const titleOf = (id: string) => recorded.find((r) => r.sessionId === id)?.title;
    const items = entries.map((s) => ({
      label: s.title || titleOf(s.sessionId) || s.sessionId,
      description: s.updatedAt ? new Date(s.updatedAt).toLocaleString() : '',
      detail: s.sessionId === sessions.active?.state.sessionId ? 'open now' : undefined,
      sessionId: s.sessionId,
    }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage('ACP: no earlier sessions in this workspace.');
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(items, { title: 'ACP: Session History', placeHolder: 'Open a session with all its cards', matchOnDescription: true });
    if (!pick) return undefined;
    await verbs.loadSession(pick.sessionId);
    await this.panel.focus();
    return pick.sessionId;
  }

  /** **New Session with Agent…**: the agent picked starts (if needed) beside those running. */
  newSessionWithAgent(): Promise<string | undefined> {
    return pickAgentForSession({ config: this.deps.config, sessions: this.deps.sessions, verbs: this.deps.verbs, agents: this.deps.agents, registry: this.deps.registry });
  }

  chooseAgent(): Promise<void> {
    return pickAgent({ config: this.deps.config, verbs: this.deps.verbs, registry: this.deps.registry });
  }
}
