import * as vscode from 'vscode';
import * as acp from '@agentclientprotocol/sdk';
import { SessionState, type SessionChanges } from './model/sessionState';
import type { ToolCallApplied } from './model/toolCalls';
import { KeyedSerialQueue } from '../base/serialQueue';
import { RestartThrottle } from '../agents/model/restartThrottle';
import { EarlyUpdates } from './model/earlyUpdates';
import { UpdateRouter } from './model/updateRouting';
import { retryAfterSignIn, type SignedIn } from '../agents/signIn/model/authMethods';
import { Disposable } from '../base/lifecycle';
import { errorMessage, type Logger } from '../base/log';
import type { AgentConnection, ClientRequestHandlers } from '../wire/agentConnection';
import type { AgentExit, AgentLaunch } from '../wire/agentProcess';
import { AgentPool } from '../agents/agentPool';
import { SessionAliases } from './model/sessionAliases';

/** Updates held for sessions whose `session/new` has not answered yet (all sessions together). */
const MAX_EARLY_UPDATES = 1000;
/** How long Close Session waits for the agent to answer `session/close` (it is closed here regardless). */
const CLOSE_ANSWER_WAIT_MS = 5000;

/** A session of an agent, as the UI sees it. */
export interface SessionRecord {
  readonly state: SessionState;
  readonly agentName: string;
  /**
   * The agent as the settings name it (`bundled`, an `acpNative.agents` name, a registry agent):
   * the key of its connection. `agentName` is how the agent calls itself.
   */
  readonly agentKey: string;
  /**
   * The id the agent knows the session by. `state.sessionId`, the id the editor knows it by, is
   * the same unless another agent already has a session of that id (test agents count `sess_1`,
   * `sess_2`…): then the editor's id gets a suffix, and the connection layer translates both ways.
   */
  readonly agentSessionId: string;
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
 * Owns the running agents (one connection per agent, started on demand) and their sessions:
 * creates sessions, applies `session/update`s to each session's state strictly in arrival order,
 * sends prompts. Everything acts on a session, through its own agent's connection; the active
 * session is only a pointer for the UI (what the chat shows, where a new prompt goes).
 */
export class AgentSessions extends Disposable {
  private readonly agents: AgentPool;
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly aliases = new SessionAliases<AgentConnection>();
  private activeSessionIdValue: string | undefined;
  /** The session that was active when its agent stopped or died: a restart reloads it. */
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
  /** One throttle per agent: one agent crashing in a loop must not block restarting another. */
  private readonly restarts = new Map<string, RestartThrottle>();
  /** Updates for ids without a record: held while a session is being created, else dropped. */
  private readonly early: EarlyUpdates<acp.SessionUpdate>;
  /** Puts each update in its session's turn of `updateQueue` (session/model/updateRouting.ts). */
  private readonly router: UpdateRouter<AgentConnection>;

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
      /** Resolves how to start an agent, by its name in the settings. */
      resolveLaunch: (agentKey: string) => AgentLaunch;
      /** The agent new sessions start with when none is named (`acpNative.defaultAgent`). */
      defaultAgent: () => string;
      /** The session's cwd and the other roots. */
      workspaceRoots: () => { cwd: string; additional: string[] };
      /** A turn begins: what the agent changes from now on belongs to it. */
      onTurnStart: (sessionId: string) => void;
      /**
       * Each tool-call message of a session once its store applied it (see `SessionStateOptions`):
       * synchronously on arrival, since the update queue runs an update at once when nothing of its
       * session is queued, and its tasks are all synchronous.
       */
      onToolCallApplied?: (sessionId: string, applied: ToolCallApplied) => void;
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
      trace?: ((agentName: string, direction: 'send' | 'receive', line: string) => void) & { readonly isActive?: () => boolean };
    },
  ) {
    super();
    this.early = new EarlyUpdates({ maxHeld: MAX_EARLY_UPDATES, log: (m) => deps.log.warn(m) });
    this.router = new UpdateRouter({
      queue: this.updateQueue,
      sessions: this.sessions,
      early: this.early,
      clientIdOf: (connection, agentSessionId) => this.clientIdOf(connection, agentSessionId),
      onError: (sessionId, error) => deps.log.error(`Update for session ${sessionId} failed: ${errorMessage(error)}`),
    });
    this.agents = new AgentPool({
      log: deps.log,
      resolveLaunch: deps.resolveLaunch,
      handlersFor: (from) => this.handlersFor(from),
      onSessionUpdate: (notification, from) => this.receiveUpdate(notification, from),
      onExit: (connection, exit) => this.agentExited(connection, exit),
      trace: deps.trace,
    });
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

  /** Makes an open session the one the UI shows (the chat's session switcher). */
  setActive(sessionId: string): SessionRecord {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`There is no open session ${sessionId}.`);
    if (this.activeSessionId !== sessionId) {
      this.activeSessionIdValue = sessionId;
      this.sessionsEmitter.fire();
    }
    return session;
  }

  /**
   * Closes an open session: its running turn is cancelled first, then its record goes (its cards,
   * questions and "always" answers with it). Its agent keeps running for its other sessions. The
   * newest remaining session becomes active. An agent that can (`sessionCapabilities.close`) is
   * told with `session/close`, so it frees what it holds for the session; the editor does not wait
   * on that answer for longer than {@link CLOSE_ANSWER_WAIT_MS}.
   */
  async closeSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    if (session.busy) await this.cancel(sessionId);
    // Its questions are answered `cancelled` whether or not a turn was running.
    this.deps.onCancel(sessionId);
    this.remove(session);
    if (this.activeSessionIdValue === sessionId) this.activeSessionIdValue = this.all.at(-1)?.state.sessionId;
    if (this.lastActiveSessionId === sessionId) this.lastActiveSessionId = undefined;
    this.sessionsEmitter.fire();
    const { connection } = session;
    if (!connection.process.isAlive || !connection.canCloseSession) return;
    let timer: NodeJS.Timeout | undefined;
    const answered = connection.closeSession({ sessionId: session.agentSessionId }).then(
      () => true,
      (error: unknown) => {
        this.deps.log.warn(`Agent "${connection.name}" could not close session ${session.agentSessionId}: ${errorMessage(error)}`);
        return true;
      },
    );
    const waited = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_ANSWER_WAIT_MS)));
    if (!(await Promise.race([answered, waited]))) {
      this.deps.log.warn(`Agent "${connection.name}" has not answered session/close for ${session.agentSessionId} after ${CLOSE_ANSWER_WAIT_MS} ms; the session is closed here.`);
    }
    clearTimeout(timer);
  }

  /**
   * Sends a prompt to a session (the active one by default), starting an agent and a session when
   * there is none: the agent of the session that was active last, else the default agent.
   */
  async prompt(prompt: string | acp.ContentBlock[], sessionId?: string): Promise<acp.StopReason> {
    const blocks: acp.ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    const target = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (sessionId !== undefined && !target) throw new Error(`There is no open session ${sessionId}.`);
    const agentKey = target?.agentKey ?? this.active?.agentKey ?? this.lastActiveAgentKey();
    // A sign-in may restart the agent, so the retry asks again for the session; the prompt is
    // shown once per session it is sent to.
    const recordedIn = new Set<SessionRecord>();
    return this.withSignIn(agentKey, async () => {
      let session = target ?? this.active ?? (await this.newSessionOnce(agentKey));
      if (!session.connection.process.isAlive) session = await this.revive(session);
      if (!recordedIn.has(session)) {
        recordedIn.add(session);
        session.state.recordPrompt(blocks);
      }
      return this.promptOnce(session, blocks);
    });
  }

  /**
   * A session whose agent has stopped (the switcher can show one): its agent starts again and
   * reloads it when it can; otherwise the user is told to start a new session.
   */
  private async revive(session: SessionRecord): Promise<SessionRecord> {
    const connection = await this.agents.ensure(session.agentKey);
    if (!connection.canLoadSession) {
      throw new Error(`Agent "${session.agentName}" of this session stopped and cannot reload it; start a new session.`);
    }
    return this.loadSessionOnce(session.agentSessionId, session.agentKey);
  }

  private lastActiveAgentKey(): string | undefined {
    return this.lastActiveSessionId ? this.sessions.get(this.lastActiveSessionId)?.agentKey : undefined;
  }

  private async promptOnce(session: SessionRecord, blocks: acp.ContentBlock[]): Promise<acp.StopReason> {
    // ACP runs one turn at a time per session.
    if (session.busy) throw new Error('The agent is still working on the last prompt; wait for it or cancel it first.');
    this.deps.onTurnStart(session.state.sessionId);
    session.busy = true;
    this.sessionsEmitter.fire();
    try {
      const response = await session.connection.prompt({ sessionId: session.agentSessionId, prompt: blocks });
      return response.stopReason;
    } finally {
      session.busy = false;
      // Updates sent before the response was written are queued; let them land first.
      await this.updateQueue.run(session.state.sessionId, () => undefined);
      session.state.flushNow();
      this.sessionsEmitter.fire();
    }
  }

  /** Cancels a session's running turn (the active session's by default), through its own agent. */
  async cancel(sessionId = this.activeSessionId): Promise<void> {
    const session = sessionId ? this.sessions.get(sessionId) : undefined;
    if (!session?.busy) return;
    // The agent hears of the cancel first, so it reads the `cancelled` answers that follow as
    // part of it rather than as a refusal of one call.
    await session.connection.cancel(session.agentSessionId);
    this.deps.onCancel(session.state.sessionId);
  }

  /**
   * Restarts an agent (the active session's, else the default; throttled) and continues its
   * session where the agent can load it, else starts a new one. Other agents keep running.
   */
  async restart(agentKey?: string): Promise<SessionRecord> {
    const key = agentKey ?? this.active?.agentKey ?? this.lastActiveAgentKey() ?? this.deps.defaultAgent();
    let throttle = this.restarts.get(key);
    if (!throttle) this.restarts.set(key, (throttle = new RestartThrottle()));
    const allowed = throttle.tryRestart();
    if (!allowed.ok) {
      throw new Error(`Agent "${key}" was restarted too often; wait ${Math.ceil(allowed.retryInMs / 1000)} s before restarting it again.`);
    }
    const candidates = [this.activeSessionId, this.lastActiveSessionId];
    const previous = candidates.find((id) => id !== undefined && this.sessions.get(id)?.agentKey === key);
    await this.stopAgent(key);
    const connection = await this.agents.ensure(key);
    if (previous && connection.canLoadSession) {
      try {
        return await this.loadSession(previous, key);
      } catch (error) {
        this.deps.log.warn(`Could not reload session ${previous} after the restart: ${errorMessage(error)}`);
      }
    }
    return this.newSession(key);
  }

  /** Starts a new session with an agent (the default one unless named), starting it if needed, and makes it active. */
  async newSession(agentKey?: string): Promise<SessionRecord> {
    const key = agentKey ?? this.deps.defaultAgent();
    await this.restartIfRelaunched(key);
    return this.withSignIn(key, () => this.newSessionOnce(key));
  }

  /**
   * The agent's settings changed since it started (another program or arguments: a registry
   * update, the bundled agent's brain): a new session gets the agent as it is set up now. The
   * running process is stopped only while none of its sessions is in a turn.
   */
  private async restartIfRelaunched(agentKey: string): Promise<void> {
    const wanted = this.agents.relaunchWanted(agentKey);
    const running = this.agents.running(agentKey);
    if (!wanted || !running) return;
    if (this.all.some((s) => s.connection === running && s.busy)) {
      this.deps.log.info(`Agent "${running.name}" is set up differently now; it keeps running until its turns end.`);
      return;
    }
    this.deps.log.info(`Agent "${running.name}" is set up differently now (${wanted.command} ${wanted.args.join(' ')}): restarting it.`);
    await this.stopAgent(agentKey);
  }

  private async newSessionOnce(agentKey = this.deps.defaultAgent()): Promise<SessionRecord> {
    const connection = await this.agents.ensure(agentKey);
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
      record = this.recordFor(response.sessionId, agentKey, connection, cwd, additional);
    } finally {
      created();
    }
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions);
    this.activeSessionId = record.state.sessionId;
    this.sessionsEmitter.fire();
    return record;
  }

  /**
   * Opens a stored session (`session/load`) with an agent (the active session's, else the
   * default): the agent replays the conversation as updates, so its cards come back as they were.
   * An already open session just becomes active.
   */
  async loadSession(sessionId: string, agentKey?: string): Promise<SessionRecord> {
    const open = this.sessions.get(sessionId);
    if (open?.connection.process.isAlive && (agentKey === undefined || open.agentKey === agentKey)) return this.setActive(sessionId);
    const key = agentKey ?? open?.agentKey ?? this.active?.agentKey ?? this.deps.defaultAgent();
    // An open record names the agent's own id; a listed session (session/list) is the agent's id.
    const agentSessionId = open?.agentKey === key ? open.agentSessionId : sessionId;
    return this.withSignIn(key, () => this.loadSessionOnce(agentSessionId, key));
  }

  /** `sessionId` is the agent's id of the session. */
  private async loadSessionOnce(sessionId: string, agentKey: string): Promise<SessionRecord> {
    const connection = await this.agents.ensure(agentKey);
    const existing = this.sessions.get(this.clientIdOf(connection, sessionId));
    if (existing?.connection === connection) {
      this.activeSessionId = existing.state.sessionId;
      this.sessionsEmitter.fire();
      return existing;
    }
    if (!connection.canLoadSession) throw new Error(`Agent "${connection.name}" cannot load sessions.`);
    const { cwd, additional } = this.deps.workspaceRoots();
    const { servers: mcpServers } = await this.deps.mcpServers(connection);
    // The record exists before the replay arrives, so the replayed updates land in it.
    const record = this.recordFor(sessionId, agentKey, connection, cwd, additional);
    record.loading = true;
    // The replay (every update before the answer) is history: the views get it in one change
    // event once the agent answered, not a frame at a time while it streams in.
    const release = record.state.holdChanges();
    let response: acp.LoadSessionResponse;
    try {
      response = await connection.loadSession({ sessionId, cwd, mcpServers });
      await this.updateQueue.run(record.state.sessionId, () => undefined);
    } finally {
      // Delivered while `loading` still says it is history (diffs of old edits do not auto-open).
      release();
      record.loading = false;
    }
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions);
    record.state.flushNow();
    this.activeSessionId = record.state.sessionId;
    this.sessionsEmitter.fire();
    return record;
  }

  /**
   * An agent's stored sessions for this workspace (`session/list`; the active session's agent,
   * else the default); undefined when it cannot list them.
   */
  async listSessions(agentKey?: string): Promise<acp.SessionInfo[] | undefined> {
    const connection = await this.agents.ensure(agentKey ?? this.active?.agentKey ?? this.deps.defaultAgent());
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
    await session.connection.setMode({ sessionId: session.agentSessionId, modeId });
    session.state.setModes({ currentModeId: modeId, availableModes: [...session.state.availableModes] });
    session.state.flushNow();
  }

  /** Sets one of the session's config options (`session/set_config_option`), e.g. the model. */
  async setConfigOption(sessionId: string, configId: string, value: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error('There is no such session.');
    const response = await session.connection.setConfigOption({ sessionId: session.agentSessionId, configId, value });
    session.state.setConfigOptions(response.configOptions);
    session.state.flushNow();
  }

  /**
   * Stops one agent (by its settings name), or every agent when none is named; their sessions
   * stay visible, their state kept. The other agents' sessions keep running.
   */
  async stopAgent(agentKey?: string): Promise<void> {
    const keys = agentKey === undefined ? this.agents.keys : [agentKey];
    const active = this.active?.agentKey;
    if (active !== undefined && keys.includes(active)) this.activeSessionId = undefined;
    await this.agents.stop(keys);
    this.sessionsEmitter.fire();
  }

  /** Stops the agent behind a connection (sign-in restarts an agent with new variables this way). */
  stopConnection(connection: AgentConnection): Promise<void> {
    const key = this.agentKeyOf(connection);
    return key === undefined ? connection.dispose() : this.stopAgent(key);
  }

  /** The settings name of a running agent's connection. */
  agentKeyOf(connection: AgentConnection): string | undefined {
    return this.agents.keyOf(connection);
  }

  /** The settings names of the agents that run now. */
  get runningAgentKeys(): string[] {
    return this.agents.runningKeys;
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
    this.agents.dispose();
    for (const record of this.sessions.values()) record.state.dispose();
    super.dispose();
  }

  /** An agent (the active session's, else the default one), started if needed (no session). */
  connectAgent(agentKey?: string): Promise<AgentConnection> {
    return this.agents.ensure(agentKey ?? this.active?.agentKey ?? this.deps.defaultAgent());
  }

  /** The running agent of the active session, else the default agent if it runs. */
  get runningAgent(): AgentConnection | undefined {
    const active = this.active;
    if (active?.connection.process.isAlive) return active.connection;
    return this.agents.running(this.deps.defaultAgent());
  }

  /** Runs a request that the agent may refuse until the user signs in: then signs in and retries once. */
  private withSignIn<T>(agentKey: string | undefined, attempt: () => Promise<T>): Promise<T> {
    const onAuthRequired = this.deps.onAuthRequired;
    if (!onAuthRequired) return attempt();
    return retryAfterSignIn(attempt, async (error) => {
      const connection = this.agents.running(agentKey ?? this.deps.defaultAgent());
      return connection ? onAuthRequired(connection, error) : undefined;
    });
  }

  /** One agent ended (crash or stop): its sessions' leftovers are cleaned up; other agents run on. */
  private agentExited(connection: AgentConnection, exit: AgentExit): void {
    this.deps.log.warn(`Agent "${connection.name}" exited (code ${exit.code}, signal ${exit.signal}).`);
    const sessionIds = this.all.filter((s) => s.connection === connection).map((s) => s.state.sessionId);
    this.deps.onAgentExit(connection, sessionIds);
    if (this.active?.connection === connection) this.activeSessionId = undefined;
    this.sessionsEmitter.fire();
  }

  /** The editor's id of a session the agent names by `agentSessionId`. */
  private clientIdOf(connection: AgentConnection, agentSessionId: string): string {
    return this.aliases.clientId(connection, agentSessionId);
  }

  /**
   * The client handlers as one connection sees them: the session ids the agent sends become the
   * editor's, and a question about a session that another agent's connection owns is refused, so
   * one agent can never ask in another's session.
   */
  private handlersFor(from: () => AgentConnection | undefined): ClientRequestHandlers {
    const handlers = this.deps.handlers;
    const toClient = <P>(params: P): P => {
      const connection = from();
      const agentId = (params as { sessionId?: unknown }).sessionId;
      if (!connection || typeof agentId !== 'string') return params;
      const sessionId = this.clientIdOf(connection, agentId);
      return sessionId === agentId ? params : { ...params, sessionId };
    };
    const owned = <P>(params: P): P => {
      const translated = toClient(params);
      const sessionId = (translated as { sessionId?: unknown }).sessionId;
      const record = typeof sessionId === 'string' ? this.sessions.get(sessionId) : undefined;
      if (record && record.connection !== from()) {
        throw acp.RequestError.invalidParams({ sessionId }, `session ${String(sessionId)} is not a session of this agent`);
      }
      return translated;
    };
    return {
      requestPermission: async (p, signal) => handlers.requestPermission(owned(p), signal),
      createElicitation: async (p, signal) => handlers.createElicitation(owned(p), signal),
      readTextFile: async (p, signal) => handlers.readTextFile(owned(p), signal),
      writeTextFile: async (p, signal) => handlers.writeTextFile(owned(p), signal),
      createTerminal: async (p, signal) => handlers.createTerminal(owned(p), signal),
      terminalOutput: async (p) => handlers.terminalOutput(owned(p)),
      waitForTerminalExit: async (p, signal) => handlers.waitForTerminalExit(owned(p), signal),
      killTerminal: async (p) => handlers.killTerminal(owned(p)),
      releaseTerminal: async (p) => handlers.releaseTerminal(owned(p)),
    };
  }

  /**
   * Applies an update in arrival order, after those already queued for its session. Also used for
   * what a permission request says of its tool call, so it lands after the updates before it.
   * With `from`, the update is as that agent sent it (its session ids); without, it names the
   * editor's session id and counts as coming from the session's own agent.
   */
  receiveUpdate(received: acp.SessionNotification, from?: AgentConnection): void {
    this.router.receive(received, from);
  }

  /**
   * Finds or creates the record of a session (from `session/new` or `session/load` only: an
   * update never creates one). Updates that arrived before it are applied first, in order, now,
   * before any queued after them.
   */
  private recordFor(agentSessionId: string, agentKey: string, connection: AgentConnection, cwd?: string, additional: string[] = []): SessionRecord {
    const known = this.sessions.get(this.clientIdOf(connection, agentSessionId));
    if (known?.connection === connection) return known;
    // A restarted agent may hand out an id its dead predecessor used (or reload that session):
    // the new connection's session replaces the old record, under the same editor id.
    const predecessor = this.all.find((r) => r.agentKey === agentKey && r.agentSessionId === agentSessionId && !r.connection.process.isAlive);
    if (predecessor) this.remove(predecessor);
    // Another agent's session may have this id: the editor then knows this one by a suffixed id.
    const sessionId = this.aliases.assign(connection, agentSessionId, predecessor?.state.sessionId ?? agentSessionId, (id) => this.sessions.has(id));
    if (sessionId !== agentSessionId) {
      this.deps.log.info(`Agent "${connection.name}" session ${agentSessionId} is known here as ${sessionId} (another agent uses that id).`);
    }
    const roots = this.deps.workspaceRoots();
    const onToolCallApplied = this.deps.onToolCallApplied;
    const state = new SessionState({
      sessionId,
      cwd: cwd ?? roots.cwd,
      additionalDirectories: additional,
      ...(onToolCallApplied ? { onToolCallApplied: (applied: ToolCallApplied) => onToolCallApplied(sessionId, applied) } : {}),
    });
    const record: SessionRecord = {
      state,
      agentName: connection.name,
      agentKey,
      agentSessionId,
      connection,
      busy: false,
      loading: false,
      counters: { updatesApplied: 0, changeEvents: 0 },
    };
    state.onDidChange((changes) => {
      record.counters.updatesApplied += changes.updates;
      record.counters.changeEvents++;
      this.sessionChangeEmitter.fire({ session: record, changes });
    });
    this.sessions.set(sessionId, record);
    for (const update of this.early.take(agentSessionId)) state.apply(update);
    this.sessionsEmitter.fire();
    return record;
  }
}
