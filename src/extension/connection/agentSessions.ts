import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { SessionState, type SessionChanges } from '../core/session';
import { KeyedSerialQueue } from '../core/serialQueue';
import { RestartThrottle } from '../core/restartThrottle';
import { EarlyUpdates } from '../core/earlyUpdates';
import { retryAfterSignIn, type SignedIn } from '../core/signIn';
import { Disposable } from '../util/lifecycle';
import { errorMessage, type Logger } from '../log';
import { AgentConnection, type ClientRequestHandlers } from './agentConnection';
import type { AgentLaunch } from './agentProcess';

/** Updates held for sessions whose `session/new` has not answered yet (all sessions together). */
const MAX_EARLY_UPDATES = 1000;

/** A session of an agent, as the UI sees it. */
export interface SessionRecord {
  readonly state: SessionState;
  readonly agentName: string;
  readonly connection: AgentConnection;
  /** A turn is running. */
  busy: boolean;
  /** `session/load` is replaying the conversation: what arrives is history, not news. */
  loading: boolean;
  /** Counters: updates applied and coalesced change events emitted. */
  readonly counters: { updatesApplied: number; changeEvents: number };
}

export interface SessionChangeEvent {
  readonly session: SessionRecord;
  readonly changes: SessionChanges;
}

/**
 * Owns the running agent and its sessions: starts the agent on demand, creates the session,
 * applies `session/update`s to each session's state strictly in arrival order, sends prompts.
 */
export class AgentSessions extends Disposable {
  private connection: AgentConnection | undefined;
  private starting: Promise<AgentConnection> | undefined;
  private readonly sessions = new Map<string, SessionRecord>();
  private activeSessionIdValue: string | undefined;
  /** The session that was active when the agent stopped or died: a restart reloads it. */
  private lastActiveSessionId: string | undefined;

  private get activeSessionId(): string | undefined {
    return this.activeSessionIdValue;
  }

  private set activeSessionId(id: string | undefined) {
    if (id === undefined && this.activeSessionIdValue !== undefined) this.lastActiveSessionId = this.activeSessionIdValue;
    this.activeSessionIdValue = id;
  }
  /** The SDK does not wait for an async notification handler before dispatching the next one. */
  private readonly updateQueue = new KeyedSerialQueue();
  private readonly restarts = new RestartThrottle();
  /** Updates for ids without a record: held while a session is being created, else dropped. */
  private readonly early: EarlyUpdates<acp.SessionUpdate>;

  private readonly sessionsEmitter = this._register(new vscode.EventEmitter<void>());
  /** A session was added, removed or became active. */
  readonly onDidChangeSessions = this.sessionsEmitter.event;
  private readonly sessionChangeEmitter = this._register(new vscode.EventEmitter<SessionChangeEvent>());
  /** Coalesced changes of one session's state. */
  readonly onDidChangeSession = this.sessionChangeEmitter.event;
  private readonly sessionRemovedEmitter = this._register(new vscode.EventEmitter<SessionRecord>());
  /**
   * A session's record is gone (cleared, or replaced by a restarted agent's session of the same
   * id): the cleanup scope of a session. Renderers and services forget what they kept for it.
   */
  readonly onDidRemoveSession = this.sessionRemovedEmitter.event;

  constructor(
    private readonly deps: {
      log: Logger;
      handlers: ClientRequestHandlers;
      /** Resolves the agent to start (the default one from the settings). */
      resolveLaunch: () => AgentLaunch;
      /** The session's cwd and the other roots. */
      workspaceRoots: () => { cwd: string; additional: string[] };
      /** A turn begins: what the agent changes from now on belongs to it. */
      onTurnStart: (sessionId: string) => void;
      /**
       * Every update as it arrives, before it is queued: the action log reads a file the moment a
       * call names it, ahead of the agent's own write.
       */
      onUpdateArrived?: (notification: acp.SessionNotification) => void;
      /** A turn is being cancelled: answer its open questions `cancelled`. */
      onCancel: (sessionId: string) => void;
      /** The agent process ended (crash or stop): clean up what it left (terminals, questions). */
      onAgentExit: (connection: AgentConnection, sessionIds: string[]) => void;
      /** The MCP servers for a session of this agent (what it can take), read at each session start. */
      mcpServers: (connection: AgentConnection) => Promise<{ servers: acp.McpServer[] }>;
      /**
       * The agent refused a request until the user signs in (`-32000`): sign in, resolving with
       * the method used, or undefined when the user gave up. The request is then retried once.
       */
      onAuthRequired?: (connection: AgentConnection, error: unknown) => Promise<SignedIn | undefined>;
      /** Sees every JSON-RPC line to and from an agent (the "ACP Trace" channel). */
      trace?: (agentName: string, direction: 'send' | 'receive', line: string) => void;
    },
  ) {
    super();
    this.early = new EarlyUpdates({ maxHeld: MAX_EARLY_UPDATES, log: (m) => deps.log.warn(m) });
  }

  get active(): SessionRecord | undefined {
    return this.activeSessionId ? this.sessions.get(this.activeSessionId) : undefined;
  }

  get all(): readonly SessionRecord[] {
    return [...this.sessions.values()];
  }

  session(sessionId: string): SessionRecord | undefined {
    return this.sessions.get(sessionId);
  }

  /** Sends a prompt to the active session, starting the agent and a session when needed. */
  async prompt(prompt: string | acp.ContentBlock[]): Promise<acp.StopReason> {
    const blocks: acp.ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    // A sign-in may restart the agent, so the retry asks again for the active session; the
    // prompt is shown once per session it is sent to.
    const recordedIn = new Set<SessionRecord>();
    return this.withSignIn(async () => {
      const session = this.active ?? (await this.newSession());
      if (!recordedIn.has(session)) {
        recordedIn.add(session);
        session.state.recordPrompt(blocks);
      }
      return this.promptOnce(session, blocks);
    });
  }

  private async promptOnce(session: SessionRecord, blocks: acp.ContentBlock[]): Promise<acp.StopReason> {
    // ACP runs one turn at a time per session.
    if (session.busy) throw new Error('The agent is still working on the last prompt; wait for it or cancel it first.');
    this.deps.onTurnStart(session.state.sessionId);
    session.busy = true;
    this.sessionsEmitter.fire();
    try {
      const response = await session.connection.prompt({ sessionId: session.state.sessionId, prompt: blocks });
      return response.stopReason;
    } finally {
      session.busy = false;
      // Updates sent before the response was written are queued; let them land first.
      await this.updateQueue.run(session.state.sessionId, () => undefined);
      session.state.flushNow();
      this.sessionsEmitter.fire();
    }
  }

  async cancel(sessionId = this.activeSessionId): Promise<void> {
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (!session?.busy) return;
    // The agent hears of the cancel first, so it reads the `cancelled` answers that follow as
    // part of it rather than as a refusal of one call.
    await session.connection.cancel(session.state.sessionId);
    this.deps.onCancel(session.state.sessionId);
  }

  /** Restarts the agent (throttled) and starts a new session with it. */
  async restart(): Promise<SessionRecord> {
    const allowed = this.restarts.tryRestart();
    if (!allowed.ok) {
      throw new Error(`The agent was restarted too often; wait ${Math.ceil(allowed.retryInMs / 1000)} s before restarting it again.`);
    }
    const previous = this.activeSessionId ?? this.lastActiveSessionId;
    await this.stopAgent();
    // Continue the conversation where the agent can load it; otherwise start afresh.
    const connection = await this.ensureAgent();
    if (previous && connection.canLoadSession) {
      try {
        return await this.loadSession(previous);
      } catch (error) {
        this.deps.log.warn(`Could not reload session ${previous} after the restart: ${errorMessage(error)}`);
      }
    }
    return this.newSession();
  }

  async newSession(): Promise<SessionRecord> {
    return this.withSignIn(() => this.newSessionOnce());
  }

  private async newSessionOnce(): Promise<SessionRecord> {
    const connection = await this.ensureAgent();
    const { cwd, additional } = this.deps.workspaceRoots();
    const canAddDirs = connection.initializeResponse.agentCapabilities?.sessionCapabilities?.additionalDirectories != null;
    const { servers: mcpServers } = await this.deps.mcpServers(connection);
    // Agents may send updates (available commands, modes) before the response names the session.
    const created = this.early.beginCreate();
    let response: acp.NewSessionResponse;
    let record: SessionRecord;
    try {
      response = await connection.newSession({
        cwd,
        mcpServers,
        ...(canAddDirs && additional.length ? { additionalDirectories: additional } : {}),
      });
      record = this.recordFor(response.sessionId, connection, cwd, additional);
    } finally {
      created();
    }
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions);
    this.activeSessionId = response.sessionId;
    this.sessionsEmitter.fire();
    return record;
  }

  /**
   * Opens a stored session with the agent (`session/load`): the agent replays the conversation as
   * updates, so its cards come back as they were. An already open session just becomes active.
   */
  async loadSession(sessionId: string): Promise<SessionRecord> {
    return this.withSignIn(() => this.loadSessionOnce(sessionId));
  }

  private async loadSessionOnce(sessionId: string): Promise<SessionRecord> {
    const connection = await this.ensureAgent();
    const existing = this.sessions.get(sessionId);
    if (existing?.connection === connection) {
      this.activeSessionId = sessionId;
      this.sessionsEmitter.fire();
      return existing;
    }
    if (!connection.canLoadSession) throw new Error(`Agent "${connection.name}" cannot load sessions.`);
    const { cwd, additional } = this.deps.workspaceRoots();
    const { servers: mcpServers } = await this.deps.mcpServers(connection);
    // The record exists before the replay arrives, so the replayed updates land in it.
    const record = this.recordFor(sessionId, connection, cwd, additional);
    record.loading = true;
    let response: acp.LoadSessionResponse;
    try {
      response = await connection.loadSession({ sessionId, cwd, mcpServers });
      await this.updateQueue.run(sessionId, () => undefined);
      record.state.flushNow();
    } finally {
      record.loading = false;
    }
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions);
    record.state.flushNow();
    this.activeSessionId = sessionId;
    this.sessionsEmitter.fire();
    return record;
  }

  /** The agent's stored sessions for this workspace (`session/list`); undefined when it cannot list them. */
  async listSessions(): Promise<acp.SessionInfo[] | undefined> {
    const connection = await this.ensureAgent();
    if (connection.initializeResponse.agentCapabilities?.sessionCapabilities?.list == null) return undefined;
    const { cwd } = this.deps.workspaceRoots();
    const sessions: acp.SessionInfo[] = [];
    let cursor: string | undefined;
    // A few pages are plenty for a picker; a misbehaving agent cannot keep us looping.
    for (let page = 0; page < 10; page++) {
      const response = await connection.listSessions({ cwd, ...(cursor ? { cursor } : {}) });
      sessions.push(...response.sessions);
      cursor = response.nextCursor ?? undefined;
      if (!cursor) break;
    }
    return sessions;
  }

  /** Switches the session's mode (`session/set_mode`). */
  async setMode(sessionId: string, modeId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error('There is no such session.');
    await session.connection.setMode({ sessionId, modeId });
    session.state.setModes({ currentModeId: modeId, availableModes: [...session.state.availableModes] });
    session.state.flushNow();
  }

  /** Sets one of the session's config options (`session/set_config_option`), e.g. the model. */
  async setConfigOption(sessionId: string, configId: string, value: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error('There is no such session.');
    const response = await session.connection.setConfigOption({ sessionId, configId, value });
    session.state.setConfigOptions(response.configOptions);
    session.state.flushNow();
  }

  /** Stops the running agent; its sessions stay visible, their state kept. */
  async stopAgent(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.starting = undefined;
    this.activeSessionId = undefined;
    if (connection) await connection.dispose();
    this.sessionsEmitter.fire();
  }

  clear(): void {
    for (const record of [...this.sessions.values()]) {
      if (!record.busy) this.remove(record);
    }
    if (this.activeSessionId && !this.sessions.has(this.activeSessionId)) this.activeSessionIdValue = undefined;
    if (this.lastActiveSessionId && !this.sessions.has(this.lastActiveSessionId)) this.lastActiveSessionId = undefined;
    this.sessionsEmitter.fire();
  }

  private remove(record: SessionRecord): void {
    record.state.dispose();
    this.sessions.delete(record.state.sessionId);
    this.sessionRemovedEmitter.fire(record);
  }

  override dispose(): void {
    void this.connection?.dispose();
    for (const record of this.sessions.values()) record.state.dispose();
    super.dispose();
  }

  /** The running agent, started if needed (no session). */
  connectAgent(): Promise<AgentConnection> {
    return this.ensureAgent();
  }

  /** The running agent, if one is up. */
  get runningAgent(): AgentConnection | undefined {
    return this.connection?.process.isAlive ? this.connection : undefined;
  }

  /** Runs a request that the agent may refuse until the user signs in: then signs in and retries once. */
  private withSignIn<T>(attempt: () => Promise<T>): Promise<T> {
    const onAuthRequired = this.deps.onAuthRequired;
    if (!onAuthRequired) return attempt();
    return retryAfterSignIn(attempt, async (error) => {
      const connection = this.runningAgent;
      return connection ? onAuthRequired(connection, error) : undefined;
    });
  }

  private ensureAgent(): Promise<AgentConnection> {
    if (this.connection?.process.isAlive) return Promise.resolve(this.connection);
    if (!this.starting) {
      const launch = this.deps.resolveLaunch();
      this.deps.log.info(`Starting agent "${launch.name}": ${launch.command} ${launch.args.join(' ')}`);
      // Updates name sessions of the connection that sent them: a restarted agent reuses ids.
      let from: AgentConnection | undefined;
      this.starting = AgentConnection.start({
        launch,
        handlers: this.deps.handlers,
        onSessionUpdate: (notification) => this.receiveUpdate(notification, from),
        log: this.deps.log,
        ...(this.deps.trace ? { trace: (direction: 'send' | 'receive', line: string) => this.deps.trace?.(launch.name, direction, line) } : {}),
      }).then(
        (connection) => {
          from = connection;
          this.connection = connection;
          this.starting = undefined;
          void connection.exited.then((exit) => {
            this.deps.log.warn(`Agent "${launch.name}" exited (code ${exit.code}, signal ${exit.signal}).`);
            const sessionIds = this.all.filter((s) => s.connection === connection).map((s) => s.state.sessionId);
            this.deps.onAgentExit(connection, sessionIds);
            if (this.connection === connection) {
              this.connection = undefined;
              this.activeSessionId = undefined;
              this.sessionsEmitter.fire();
            }
          });
          return connection;
        },
        (error: unknown) => {
          this.starting = undefined;
          throw error;
        },
      );
    }
    return this.starting;
  }

  /**
   * Applies an update in arrival order, after those already queued for its session. Also used for
   * what a permission request says of its tool call, so it lands after the updates before it.
   */
  receiveUpdate(notification: acp.SessionNotification, from: AgentConnection | undefined = this.connection): void {
    const { sessionId, update } = notification;
    try {
      this.deps.onUpdateArrived?.(notification);
    } catch (error) {
      this.deps.log.error(`Update hook for session ${sessionId} failed: ${errorMessage(error)}`);
    }
    void this.updateQueue
      .run(sessionId, () => {
        const record = this.sessions.get(sessionId);
        // A record of a dead predecessor with the same id is not this session: it is replaced
        // when `session/new` or `session/load` answers, so hold the update for that.
        if (record && record.connection === from) record.state.apply(update);
        else this.early.receive(sessionId, update);
      })
      .catch((error: unknown) => this.deps.log.error(`Update for session ${sessionId} failed: ${errorMessage(error)}`));
  }

  /**
   * Finds or creates the record of a session (from `session/new` or `session/load` only: an
   * update never creates one). Updates that arrived before it are applied first, in order, now,
   * before any queued after them.
   */
  private recordFor(sessionId: string, connection: AgentConnection, cwd?: string, additional: string[] = []): SessionRecord {
    const existing = this.sessions.get(sessionId);
    if (existing?.connection === connection) return existing;
    if (existing) {
      // A restarted agent may hand out an id its dead predecessor used (or reload that session):
      // the new connection's session replaces the old record.
      this.remove(existing);
    }
    const roots = this.deps.workspaceRoots();
    const state = new SessionState({ sessionId, cwd: cwd ?? roots.cwd, additionalDirectories: additional });
    const record: SessionRecord = { state, agentName: connection.name, connection, busy: false, loading: false, counters: { updatesApplied: 0, changeEvents: 0 } };
    state.onDidChange((changes) => {
      record.counters.updatesApplied += changes.updates;
      record.counters.changeEvents++;
      this.sessionChangeEmitter.fire({ session: record, changes });
    });
    this.sessions.set(sessionId, record);
    for (const update of this.early.take(sessionId)) state.apply(update);
    this.sessionsEmitter.fire();
    return record;
  }
}
