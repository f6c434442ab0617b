import * as vscode from 'vscode';
import * as path from 'node:path';
import { AgentSessions } from './session/agentSessions';
import type { ClientRequestHandlers } from './wire/agentConnection';
import type { AgentLaunch } from './wire/agentProcess';
import { BUNDLED_AGENT_NAME, Config } from './config';
import type { Logger } from './base/log';
import { DiffDocumentProvider } from './cards/diff/diffDocuments';
import { DiffEditors } from './cards/diff/diffEditors';
import { DisplayTerminals } from './cards/terminal/displayTerminals';
import { TerminalViews } from './cards/terminal/terminalViews';
import { ToolTextDocumentProvider } from './cards/tree/textDocuments';
import { ToolCallsTree } from './cards/tree/toolCallsTree';
import { CardRenderers } from './cards/cards';
import { Chat } from './chat/chat';
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
import { HunkLenses, type HunkLensStats } from './review/hunkLenses';
import { Disposable } from './base/lifecycle';
import { watchTitleContext } from './workspace/titles';

/**
 * The one object that owns the extension's parts: configuration, log, the agent and its
 * sessions, the renderers and the services the agent calls. `activate` builds it; disposing it
 * stops everything.
 */
export class AcpNative extends Disposable {
  readonly config = new Config();
  readonly sessions: AgentSessions;
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
  readonly hunkLenses: HunkLenses;
  /** What the hunk lenses counted (the API's stats). */
  readonly hunkLensStats: HunkLensStats = { checks: 0, refreshes: 0 };
  readonly chat: Chat;
  readonly mcpServers: McpServerService;
  /** The ACP Registry: the agent catalogue and the agents added from it. */
  readonly registry: AgentRegistry;
  readonly signIn: SignInService;
  readonly elicitations: ElicitationService;
  readonly trace: ProtocolTrace;

  constructor(
    readonly extensionContext: vscode.ExtensionContext,
    readonly log: Logger,
  ) {
    super();
    // First: every title below is named through it, and it must forget the old folders first.
    this._register(watchTitleContext());
    const permissions = (this.permissions = this._register(
      new PermissionService({
        config: this.config,
        log,
        showDiff: async (sessionId, toolCallId) => {
          const session = this.sessions.session(sessionId);
          const call = session?.state.toolCall(toolCallId);
          if (session && call) await this.diffEditors.open(session, call);
        },
      }),
    ));
    const guard = new WorkspaceGuard({ config: this.config, permissions });
    const scratch = this._register(new ScratchDocuments());
    const files = new FileService({ log, guard, permissions, scratch });
    this.terminalViews = this._register(new TerminalViews());
    this.clientTerminals = this._register(
      new ClientTerminals({
        panels: this.terminalViews,
        log,
        resolveCwd: (cwd, sessionId, signal) => (cwd ? guard.check(cwd, 'run commands in', sessionId, signal) : Promise.resolve(this.workspaceRoots().cwd)),
      }),
    );
    this.mcpServers = this._register(
      new McpServerService({
        config: this.config,
        log,
        secrets: extensionContext.secrets,
        firstFolder: () => vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath,
      }),
    );
    this.signIn = this._register(new SignInService({ secrets: extensionContext.secrets, sessions: () => this.sessions, log }));
    // Loaded before the first launch can need them (a launch reads them synchronously).
    void this.signIn.credentials.preload([this.config.defaultAgent, ...this.config.agents.map((a) => a.name)]);
    const elicitations = (this.elicitations = this._register(new ElicitationService(log)));
    this.trace = this._register(new ProtocolTrace(this.config));
    const handlers: ClientRequestHandlers = {
      requestPermission: async (p, signal) => {
        permissions.validate(p);
        // What the request says of the call (Claude's adapter sends the diff here) joins the card.
        this.sessions.receiveUpdate({ sessionId: p.sessionId, update: { sessionUpdate: 'tool_call_update', ...p.toolCall } });
        // The agent writes once allowed: the copies of large files it names are finished first.
        await this.actionLog.copiesOf(p.sessionId, p.toolCall.toolCallId);
        return permissions.request(p, signal);
      },
      readTextFile: (p, signal) => files.read(p, signal),
      writeTextFile: async (p, signal) => {
        await this.actionLog.beforeFsWrite(p.sessionId, p.path);
        let written = false;
        try {
          const response = await files.write(p, signal);
          written = true;
          return response;
        } finally {
          this.actionLog.afterFsWrite(p.sessionId, p.path, written);
        }
      },
      createTerminal: (p, signal) => this.clientTerminals.create(p, signal),
      terminalOutput: async (p) => this.clientTerminals.output(p),
      waitForTerminalExit: (p, signal) => this.clientTerminals.waitForExit(p, signal),
      killTerminal: async (p) => this.clientTerminals.kill(p),
      releaseTerminal: async (p) => this.clientTerminals.release(p),
      createElicitation: (p, signal) => elicitations.request(p, signal),
    };
    this.sessions = this._register(
      new AgentSessions({
        log,
        handlers,
        resolveLaunch: (agentKey) => this.resolveLaunch(agentKey),
        defaultAgent: () => this.config.defaultAgent,
        workspaceRoots: () => this.workspaceRoots(),
        onCancel: (sessionId) => {
          permissions.cancelSession(sessionId);
          elicitations.cancelSession(sessionId);
        },
        trace: this.trace.write,
        onTurnStart: (sessionId) => {
          elicitations.beginTurn(sessionId);
          // The turn is known by its user message's index in the session (checkpoints name it so).
          const transcript = this.sessions.session(sessionId)?.state.transcript ?? [];
          const turn = transcript.filter((e) => e.type === 'message' && e.role === 'user').length - 1;
          this.actionLog.beginTurn(sessionId, Math.max(0, turn));
        },
        onToolCallApplied: (sessionId, applied) => this.actionLog.callApplied(sessionId, applied),
        mcpServers: (connection) => this.mcpServers.serversFor(connection),
        onAgentExit: (_connection, sessionIds) => {
          for (const id of sessionIds) {
            permissions.cancelSession(id);
            elicitations.cancelSession(id);
            this.clientTerminals.killAll(id);
          }
        },
        onAuthRequired: (connection, error) => this.signIn.onAuthRequired(connection, error),
      }),
    );
    // A session's "always" answers go with it.
    this._register(this.sessions.onDidRemoveSession((session) => permissions.requests.forgetSession(session.state.sessionId)));
    const storage = extensionContext.storageUri ?? extensionContext.globalStorageUri;
    this.actionLog = this._register(
      new ActionLogCapture({ sessions: this.sessions, storageDir: path.join(storage.fsPath, 'action-log'), log }),
    );
    this.actionLogActions = new ActionLogActions({ capture: this.actionLog, scratch, log });
    this.hunkLenses = this._register(
      new HunkLenses({ capture: this.actionLog, activeSessionId: () => this.sessions.active?.state.sessionId, stats: this.hunkLensStats }),
    );
    this._register(this.sessions.onDidRemoveSession((session) => elicitations.forgetSession(session.state.sessionId)));
    const diffDocuments = this._register(new DiffDocumentProvider(this.sessions));
    this.registry = this._register(new AgentRegistry({ extensionContext, config: this.config, sessions: this.sessions, log }));
    this._register(new ToolTextDocumentProvider(this.sessions));
    this.diffEditors = this._register(new DiffEditors({ sessions: this.sessions, config: this.config, log, documents: diffDocuments }));
    this.displayTerminals = this._register(new DisplayTerminals({ sessions: this.sessions, views: this.terminalViews }));
    this.tree = this._register(new ToolCallsTree(this.sessions, this.actionLog));
    this.cards = new CardRenderers({ diffEditors: this.diffEditors, terminalViews: this.terminalViews, tree: this.tree });
    this.chat = this._register(
      new Chat({
        extensionContext,
        sessions: this.sessions,
        permissions,
        tree: this.tree,
        config: this.config,
        log,
        registry: this.registry,
        elicitations,
        turns: {
          changesOf: (sessionId) => this.actionLog.turnChanges(sessionId),
          onDidChange: this.actionLog.onDidChange,
        },
      }),
    );
    permissions.questionsShownElsewhere = () => this.chat.view.isVisible;
    permissions.agentNameOf = (sessionId) => this.sessions.session(sessionId)?.agentName;
    elicitations.shownInChat = () => this.chat.view.isVisible;
  }

  /** The first workspace folder is the session's cwd; the others are additional directories. */
  workspaceRoots(): { cwd: string; additional: string[] } {
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const [cwd, ...additional] = folders;
    if (!cwd) throw new Error('ACP Native needs a folder: open a folder or workspace to start an agent.');
    return { cwd, additional };
  }

  /** How to start an agent, by its settings name (`bundled`, an `acpNative.agents` entry, a registry agent). */
  private resolveLaunch(wanted: string): AgentLaunch {
    if (!vscode.workspace.isTrusted) {
      throw new Error('This workspace is not trusted. Agents run programs and change files, so ACP Native starts none here until you trust the workspace.');
    }
    const { cwd } = this.workspaceRoots();
    if (wanted === BUNDLED_AGENT_NAME) return this.bundledLaunch(cwd);
    const agent = this.config.agents.find((a) => a.name === wanted);
    // Variables the user gave to sign in (env_var methods) come from secret storage.
    const signInEnv = this.signIn.credentials.launchEnv(wanted);
    if (agent) return { name: agent.name, command: agent.command, args: agent.args, env: { ...agent.env, ...signInEnv }, cwd };
    // Agents added from the ACP Registry (an acpNative.agents entry of the same name wins above).
    const added = this.registry.launchOf(wanted);
    if (added) return { name: wanted, ...added, env: { ...added.env, ...signInEnv }, cwd };
    throw new Error(`No agent named "${wanted}" in the setting acpNative.agents or among the agents added from the ACP Registry.`);
  }

  private bundledLaunch(cwd: string): AgentLaunch {
    const ctx = this.extensionContext;
    const stateDir = path.join((ctx.storageUri ?? ctx.globalStorageUri).fsPath, 'agent-state');
    return {
      name: 'ACP Native agent',
      // Node under code-server, Electron under desktop VS Code: ELECTRON_RUN_AS_NODE makes both Node.
      command: process.execPath,
      args: [ctx.asAbsolutePath('dist/agent.js'), '--state-dir', stateDir, ...this.config.bundledAgentArgs],
      // The LLM key comes from SecretStorage, never from settings (and is never logged).
      env: { ELECTRON_RUN_AS_NODE: '1', ...this.chat.apiKey.env() },
      cwd,
    };
  }
}
