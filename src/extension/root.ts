import * as vscode from 'vscode';
import * as path from 'node:path';
import { AgentSessions } from './session/agentSessions';
import { SessionVerbs } from './session/sessionVerbs';
import { PromptQueues } from './queue/promptQueues';
import { AttentionSignal } from './notifications/attentionSignal';
import { Agents } from './agents/agents';
import { SignInRetry } from './agents/signIn/signInRetry';
import { SignInCredentials } from './agents/signIn/credentials';
import { LlmApiKey } from './agents/signIn/llmApiKey';
import { AgentLaunches } from './agents/agentLaunch';
import { AddedAgents } from './agents/registry/addedAgents';
import { ClientRequests } from './requests/clientRequests';
import { firstFolder, workspaceRoots } from './workspace/workspaceRoots';
import { Config } from './config';
import type { Logger } from './base/log';
import { DiffDocumentProvider } from './cards/diff/diffDocuments';
import { DiffEditors } from './cards/diff/diffEditors';
import { DisplayTerminals } from './cards/terminal/displayTerminals';
import { TerminalViews } from './cards/terminal/terminalViews';
import { ToolTextDocumentProvider } from './cards/tree/textDocuments';
import { ToolCallsTree } from './cards/tree/toolCallsTree';
import { CardRenderers } from './cards/cards';
import { Chat } from './chat/chat';
import { ChatPanel } from './chat/chatPanel';
import { SessionHistory } from './chat/sessionHistory';
import { ClientTerminals } from './cards/terminal/clientTerminals';
import { FileService } from './workspace/fileService';
import { McpServerService } from './agents/mcp/mcpServerService';
import { PermissionService } from './permissions/permissionService';
import { ElicitationService } from './forms/elicitationService';
import { ProtocolTrace } from './agents/protocolTrace';
import { WorkspaceGuard } from './workspace/workspaceGuard';
import { ScratchDocuments } from './workspace/scratchDocuments';
import { AgentRegistry } from './agents/registry/agentRegistry';
import { SignInService } from './agents/signIn/signInService';
import { ActionLogCapture } from './review/actionLogCapture';
import { ActionLogActions } from './review/actionLogActions';
import { askAndRestore } from './review/reviewCommands';
import { PartialApprovals } from './partialApproval/partialApprovals';
import { AgentNotes } from './partialApproval/model/agentNotes';
import { HunkReview } from './partialApproval/hunkReview';
import { Checkpoints, workspaceFolderPaths } from './checkpoints/checkpoints';
import { HunkLenses } from './review/hunkLenses';
import { Disposable } from './base/lifecycle';
import { Probes } from './base/probes';
import { WindowPacing } from './pacing/windowPacing';
import { SessionCounters } from './session/sessionCounters';
import { watchTitleContext } from './workspace/titles';
import { PlanPreviews } from './plans/planPreviews';
import { ContextWindow } from './contextWindow/contextWindow';
import { SessionJournals } from './session/sessionJournals';

/**
 * The one object that owns the extension's parts: configuration, log, the agent and its
 * sessions, the renderers and the services the agent calls. `activate` builds it; disposing it
 * stops everything.
 */
export class AcpNative extends Disposable {
  readonly config = new Config();
  readonly sessions: AgentSessions;
  readonly agents: Agents;
  readonly verbs: SessionVerbs;
  /** Each session's prompt queue, and steering: how prompts reach a session from the chat and the API. */
  readonly queues: PromptQueues;
  /** The done / needs-you signal: notifications and the view container's badge. */
  readonly attention: AttentionSignal;
  readonly terminalViews: TerminalViews;
  readonly diffEditors: DiffEditors;
  readonly displayTerminals: DisplayTerminals;
  readonly tree: ToolCallsTree;
  /** Opens a card in its renderer: the one switch over card kinds. */
  readonly cards: CardRenderers;
  readonly clientTerminals: ClientTerminals;
  readonly permissions: PermissionService;
  readonly actionLog: ActionLogCapture;
  readonly actionLogActions: ActionLogActions;
  /** Partial approval of an edit at its question: the kept hunks, the agent told. */
  readonly partialApprovals: PartialApprovals;
  /** Review hunks at a question: the diff editor with Keep / Reject over each hunk. */
  readonly hunkReview: HunkReview;
  /** What the agent hears at the start of its next prompt when it could not be steered. */
  readonly agentNotes = new AgentNotes();
  readonly checkpoints: Checkpoints;
  readonly hunkLenses: HunkLenses;
  readonly chat: Chat;
  /** What each session's state was fed (the conversation `session/resume` shows again). */
  readonly journals: SessionJournals;
  readonly mcpServers: McpServerService;
  /** The ACP Registry: the agent catalogue and the agents added from it. */
  readonly registry: AgentRegistry;
  readonly signIn: SignInService;
  readonly elicitations: ElicitationService;
  readonly trace: ProtocolTrace;
  /** The bundled agent's LLM key (secret storage). */
  readonly llmApiKey: LlmApiKey;
  /** Counters and gauges for tests and the benchmark (the API's stats). */
  readonly probes = new Probes();
  /** The window's lag and the cadence the renderers draw at. */
  readonly pacing: WindowPacing;
  readonly sessionCounters: SessionCounters;
  /** The agent's plans shown whole (markdown preview, or the plan's file). */
  readonly plans: PlanPreviews;
  /** The context meter's Compact and New session from summary. */
  readonly contextWindow: ContextWindow;

  constructor(
    readonly extensionContext: vscode.ExtensionContext,
    readonly log: Logger,
  ) {
    super();
    const { config } = this;
    // First: every title below is named through it, and it must forget the old folders first.
    this._register(watchTitleContext());
    const storage = extensionContext.storageUri ?? extensionContext.globalStorageUri;
    const journals = (this.journals = new SessionJournals(path.join(storage.fsPath, 'sessions'), log));
    const sessions = (this.sessions = this._register(new AgentSessions({ log, workspaceRoots, journal: (id) => journals.writer(id) })));
    // Writes what still waits when the extension deactivates.
    this._register(journals);
    const { probes } = this;
    this.sessionCounters = this._register(new SessionCounters(sessions));
    const checkpoints = (this.checkpoints = this._register(
      new Checkpoints({ storageDir: path.join(storage.fsPath, 'checkpoints'), log, folders: () => workspaceFolderPaths(), settings: () => config.checkpoints }),
    ));
    const actionLog = (this.actionLog = this._register(new ActionLogCapture({ sessions, storageDir: path.join(storage.fsPath, 'action-log'), log, checkpoints })));
    const diffDocuments = this._register(new DiffDocumentProvider(sessions));
    this.diffEditors = this._register(new DiffEditors({ sessions, config, log, documents: diffDocuments, probes }));
    // Before the services that ask: they read from it whether the chat shows their questions.
    const chatPanel = this._register(new ChatPanel({ extensionUri: extensionContext.extensionUri, log }));
    const permissions = (this.permissions = this._register(new PermissionService({
        config,
        log,
        sessions,
        diffs: this.diffEditors,
        surface: chatPanel,
        // Built below: partial approval stands on the questions.
        hunks: { count: (q) => this.partialApprovals.hunkCount(q), review: (id) => this.hunkReview.open(id) },
      })));
    const guard = new WorkspaceGuard({ config, permissions });
    const scratch = this._register(new ScratchDocuments());
    const files = new FileService({ log, guard, permissions, scratch });
    const pacing = (this.pacing = this._register(new WindowPacing({ adaptToWindowLag: () => config.adaptToWindowLag })));
    this.terminalViews = this._register(new TerminalViews(() => pacing.cadence.terminalDeliverMs));
    this.clientTerminals = this._register(
      new ClientTerminals({ panels: this.terminalViews, log, resolveCwd: (cwd, sessionId, signal) => guard.commandCwd(cwd, sessionId, signal), sessions }),
    );
    const elicitations = (this.elicitations = this._register(new ElicitationService({ log, sessions, surface: chatPanel })));
    this.mcpServers = this._register(new McpServerService({ config, log, secrets: extensionContext.secrets, firstFolder }));
    this.trace = this._register(new ProtocolTrace(config));
    const credentials = this._register(new SignInCredentials(extensionContext.secrets));
    this.llmApiKey = this._register(new LlmApiKey(extensionContext.secrets));
    const added = new AddedAgents(extensionContext.globalState);
    this.actionLogActions = this._register(new ActionLogActions({ capture: actionLog, scratch, log, checkpoints }));
    const partialApprovals = (this.partialApprovals = this._register(
      new PartialApprovals({
        log,
        permissions,
        sessions,
        capture: actionLog,
        actions: this.actionLogActions,
        // The verbs are built below, once the agents are.
        verbs: { steer: (sessionId, prompt) => this.verbs.steer(sessionId, prompt) },
        notes: this.agentNotes,
      }),
    ));
    this.hunkReview = this._register(new HunkReview({ partial: partialApprovals, permissions, scratch }));
    const requests = new ClientRequests({ log, sessions, actionLog, permissions, files, terminals: this.clientTerminals, forms: elicitations, fsWrites: partialApprovals });
    this.agents = this._register(
      new Agents({
        log,
        sessions,
        requests,
        launches: new AgentLaunches({ config, credentials, llmApiKey: this.llmApiKey, added, extension: extensionContext }),
        config,
        forms: elicitations,
        trace: this.trace.write,
      }),
    );
    this.signIn = this._register(new SignInService({ agents: this.agents, credentials, log }));
    // Before the verbs: a session opened again goes to the agent it was with here.
    const history = this._register(new SessionHistory(extensionContext.workspaceState, sessions));
    this.verbs = new SessionVerbs({
      log,
      sessions,
      agents: this.agents,
      signIn: new SignInRetry({ agents: this.agents, config, signIn: this.signIn }),
      config,
      workspaceRoots,
      mcpServers: this.mcpServers,
      turns: actionLog,
      checkpoints,
      notes: this.agentNotes,
      journals,
      recordedAgentOf: (sessionId) => history.agentOf(sessionId),
    });
    this.queues = this._register(new PromptQueues({ sessions, verbs: this.verbs, store: extensionContext.workspaceState, log }));
    const actionLogActions = this.actionLogActions;
    this.hunkLenses = this._register(new HunkLenses({ capture: actionLog, activeSessionId: () => sessions.active?.state.sessionId, probes }));
    this.registry = this._register(new AgentRegistry({ extensionContext, config, sessions, verbs: this.verbs, agents: this.agents, added, log }));
    this._register(new ToolTextDocumentProvider(sessions));
    this.displayTerminals = this._register(new DisplayTerminals({ sessions, views: this.terminalViews, probes }));
    this.tree = this._register(new ToolCallsTree(sessions, actionLog, probes, pacing));
    this.cards = new CardRenderers({ diffEditors: this.diffEditors, terminalViews: this.terminalViews, tree: this.tree });
    this.chat = this._register(
      new Chat({
        panel: chatPanel,
        probes,
        pacing,
        sessions,
        verbs: this.verbs,
        queues: this.queues,
        agents: this.agents,
        permissions,
        hunks: partialApprovals,
        tree: this.tree,
        config,
        log,
        registry: this.registry,
        elicitations,
        turns: actionLog,
        restore: {
          ask: async (sessionId, turn, wording) => (await askAndRestore(actionLogActions, sessionId, turn, wording)).kind !== 'cancelled',
          restore: (sessionId, turn) => actionLogActions.restoreCheckpoint(sessionId, turn),
        },
        journals,
        history,
      }),
    );
    // Journals of sessions no longer in the history (fallen off it, or deleted in another window) go.
    journals.prune(this.chat.history.all().map((s) => s.sessionId));
    const tree = this.tree;
    this.attention = this._register(
      new AttentionSignal({
        sessions,
        verbs: this.verbs,
        chat: chatPanel,
        questions: {
          count: (id) => permissions.requests.pending(id).length + elicitations.pending(id).length,
          changes: [(listener) => permissions.requests.onDidChange(listener), (listener) => elicitations.onDidChange(listener)],
        },
        badgeView: tree.view,
      }),
    );
    this.plans = this._register(new PlanPreviews({ sessions, log }));
    const chat = this.chat;
    this.contextWindow = new ContextWindow({
      sessions,
      verbs: this.verbs,
      chat: { attachContext: (name, text) => chat.actions.attachContext(name, text), focus: () => chat.panel.focus() },
    });
  }
}
