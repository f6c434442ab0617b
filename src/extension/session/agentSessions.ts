import * as vscode from 'vscode';
import * as acp from '@agentclientprotocol/sdk';
import { SessionState, type SessionChanges } from './model/sessionState';
import type { ToolCallApplied } from './model/toolCalls';
import { KeyedSerialQueue } from '../base/serialQueue';
import { EarlyUpdates } from './model/earlyUpdates';
import { UpdateRouter } from './model/updateRouting';
import { Disposable, toDisposable, type IDisposable } from '../base/lifecycle';
import { errorMessage, type Logger } from '../base/log';
import type { AgentConnection } from '../wire/agentConnection';
import { beforeEachRequest, type ClientRequestHandlers } from '../wire/clientMethods';
import { SessionAliases } from './model/sessionAliases';
import { Scope } from '../base/scope';
import type { SubagentApplied } from './model/subagents';
import type { JournalEntry } from './model/sessionJournal';

/** Updates held for sessions whose `session/new` has not answered yet (all sessions together). */
const MAX_EARLY_UPDATES = 1000;
/** Updates held for subagents whose `subagent_update` has not come yet (all of them together). */
const MAX_UNANNOUNCED_UPDATES = 2000;

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
  /**
   * What is kept for the session while its record lives (its cards' bookkeeping, its forms, its
   * "always" answers): disposed when the record goes (closed, cleared, or replaced by a restarted
   * agent's session of the same id). Everything created for a session registers here or below.
   */
  readonly scope: Scope;
  /**
   * What lives while the session's agent runs (its client terminals, its open questions): the
   * agent connection's scope, shared by its sessions, disposed when the agent exits. The record
   * and its cards stay.
   */
  readonly agentScope: Scope;
  /** The questions open in the session's turn: let go (answered `cancelled`) when the turn is cancelled or the session closes. */
  questions: Scope;
  /** The turn was cancelled: a form that arrives before the next turn begins is answered `cancel` at once. */
  turnCancelled: boolean;
  /**
   * A subagent's session: the session that announced it (`subagent_update`) and the id the parent
   * names it by (the agent's). Undefined for a session the user opened.
   */
  readonly parent?: { readonly sessionId: string; readonly childId: string };
}

export interface SessionChangeEvent {
  readonly session: SessionRecord;
  readonly changes: SessionChanges;
}

/**
 * The open sessions of every agent: their records (by the editor's id, with the agents' ids
 * translated where two agents use the same one), the active pointer (what the chat shows, where a
 * new prompt goes), the change events, and the routing of each `session/update` to its session's
 * state, strictly in arrival order. Starting agents (`agents/agents.ts`) and the ACP verbs on a
 * session (`session/sessionVerbs.ts`) live elsewhere and act on these records.
 */
export class AgentSessions extends Disposable {
  private readonly sessions = new Map<string, SessionRecord>();
  private readonly aliases = new SessionAliases<AgentConnection>();
  private activeSessionIdValue: string | undefined;
  /** The session that was active when its agent stopped or died: a restart reloads it. */
  private lastActiveSessionId: string | undefined;
  /** The SDK does not wait for an async notification handler before dispatching the next one. */
  private readonly updateQueue = new KeyedSerialQueue();
  /** Updates for ids without a record: held while a session is being created, else dropped. */
  private readonly early: EarlyUpdates<acp.SessionUpdate>;
  /** Puts each update in its session's turn of `updateQueue` (session/model/updateRouting.ts). */
  private readonly router: UpdateRouter<AgentConnection>;

  private readonly sessionsEmitter = this._register(new vscode.EventEmitter<void>());
  /** A session was added, removed or became active, or a turn began or ended. */
  readonly onDidChangeSessions = this.sessionsEmitter.event;
  private readonly sessionChangeEmitter = this._register(new vscode.EventEmitter<SessionChangeEvent>());
  /** Coalesced changes of one session's state. */
  readonly onDidChangeSession = this.sessionChangeEmitter.event;
  /** Per running agent connection: what lives while it runs (see `SessionRecord.agentScope`). */
  private readonly agentScopes = new Map<AgentConnection, Scope>();

  private readonly callListeners = new Set<(sessionId: string, applied: ToolCallApplied) => void>();

  /**
   * Each tool-call message of any session once its store merged it (see `SessionStateOptions`):
   * synchronously on arrival, since the update queue runs an update at once when nothing of its
   * session is queued, and its tasks are all synchronous. The action log reads a file the moment a
   * call names it, ahead of the agent's own write. A listener that throws is logged; the update
   * still lands.
   */
  onToolCallApplied(listener: (sessionId: string, applied: ToolCallApplied) => void): IDisposable {
    this.callListeners.add(listener);
    return toDisposable(() => this.callListeners.delete(listener));
  }

  constructor(
    private readonly deps: {
      log: Logger;
      /** The session's cwd and the other roots. */
      workspaceRoots: () => { cwd: string; additional: string[] };
      /** Where a top-level session's state records what it is fed (its journal: `sessionJournals.ts`). */
      journal?: (sessionId: string) => (entry: JournalEntry) => void;
    },
  ) {
    super();
    this.early = new EarlyUpdates({ maxHeld: MAX_EARLY_UPDATES, maxOrphans: MAX_UNANNOUNCED_UPDATES, log: (m) => deps.log.warn(m) });
    this.router = new UpdateRouter({
      queue: this.updateQueue,
      sessions: this.sessions,
      early: this.early,
      clientIdOf: (connection, agentSessionId) => this.clientIdOf(connection, agentSessionId),
      onError: (sessionId, error) => deps.log.error(`Update for session ${sessionId} failed: ${errorMessage(error)}`),
    });
  }

  get active(): SessionRecord | undefined {
    return this.activeSessionIdValue ? this.sessions.get(this.activeSessionIdValue) : undefined;
  }

  /** Every open session, subagents' included. */
  get all(): readonly SessionRecord[] {
    return [...this.sessions.values()];
  }

  /** The sessions the user opened (not the subagents'): the switcher, the status bar, the tree's roots. */
  get topLevel(): readonly SessionRecord[] {
    return this.all.filter((r) => !r.parent);
  }

  /** The subagents a session announced that have a session here, in the order they came. */
  childrenOf(sessionId: string): SessionRecord[] {
    const record = this.sessions.get(sessionId);
    if (!record) return [];
    const children: SessionRecord[] = [];
    for (const subagent of record.state.subagents) {
      const child = this.childOf(record, subagent.childId);
      if (child) children.push(child);
    }
    return children;
  }

  /** The session of the child `parent` names `childId`, if it opened. */
  childOf(parent: Pick<SessionRecord, 'connection' | 'state'>, childId: string): SessionRecord | undefined {
    const child = this.sessions.get(this.clientIdOf(parent.connection, childId));
    return child?.parent?.sessionId === parent.state.sessionId ? child : undefined;
  }

  /** The session the user opened that a (possibly nested) subagent's session belongs to. */
  rootOf(sessionId: string): string {
    let id = sessionId;
    for (let depth = 0; depth < 64; depth++) {
      const parent = this.sessions.get(id)?.parent?.sessionId;
      if (!parent) return id;
      id = parent;
    }
    return id;
  }

  /** The session and every subagent under it, depth first. */
  subtreeOf(sessionId: string): SessionRecord[] {
    const record = this.sessions.get(sessionId);
    if (!record) return [];
    const out: SessionRecord[] = [record];
    for (let i = 0; i < out.length && out.length < 10_000; i++) out.push(...this.childrenOf((out[i] as SessionRecord).state.sessionId));
    return out;
  }

  session(sessionId: string): SessionRecord | undefined {
    return this.sessions.get(sessionId);
  }

  /** Makes an open session the one the UI shows (the chat's session switcher). */
  setActive(sessionId: string): SessionRecord {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`There is no open session ${sessionId}.`);
    if (this.activeSessionIdValue !== sessionId) {
      this.activeSessionIdValue = sessionId;
      this.changed();
    }
    return session;
  }

  /** A session just created or loaded becomes the one the UI shows. */
  show(record: SessionRecord): SessionRecord {
    this.activeSessionIdValue = record.state.sessionId;
    this.changed();
    return record;
  }

  /**
   * No session is active any more when it is one of these agents' (they stop or died); the one
   * that was is remembered, so a restart reloads it and the next prompt goes to its agent.
   */
  deactivateAgents(isStopping: (record: SessionRecord) => boolean): void {
    const active = this.active;
    if (active && isStopping(active)) {
      this.lastActiveSessionId = active.state.sessionId;
      this.activeSessionIdValue = undefined;
    }
  }

  /** The agent of the session that was active when its agent stopped (see `deactivateAgents`). */
  lastActiveAgentKey(): string | undefined {
    return this.lastActiveSessionId ? this.sessions.get(this.lastActiveSessionId)?.agentKey : undefined;
  }

  /** The session of this agent a restart continues: the active one, else the one active when it stopped. */
  reloadCandidate(agentKey: string): string | undefined {
    const candidates = [this.activeSessionIdValue, this.lastActiveSessionId];
    return candidates.find((id) => id !== undefined && this.sessions.get(id)?.agentKey === agentKey);
  }

  /** Something every view of the open sessions shows changed (a turn began or ended, an agent stopped). */
  changed(): void {
    this.sessionsEmitter.fire();
  }

  /** Closes a session's record (its cards, questions and "always" answers with it); the newest remaining one becomes active. */
  close(record: SessionRecord): void {
    const sessionId = record.state.sessionId;
    this.remove(record);
    // Not its subagents: a reload's replay announces them again, their early updates first.
    this.early.closed(record.agentSessionId);
    if (this.activeSessionIdValue === sessionId) this.activeSessionIdValue = this.topLevel.at(-1)?.state.sessionId;
    if (this.lastActiveSessionId === sessionId) this.lastActiveSessionId = undefined;
    this.changed();
  }

  /** Clears the sessions not in a turn (Clear Tool Calls). */
  clear(): void {
    for (const record of this.topLevel) {
      if (!record.busy && this.sessions.has(record.state.sessionId)) this.remove(record);
    }
    if (this.activeSessionIdValue && !this.sessions.has(this.activeSessionIdValue)) this.activeSessionIdValue = undefined;
    if (this.lastActiveSessionId && !this.sessions.has(this.lastActiveSessionId)) this.lastActiveSessionId = undefined;
    this.changed();
  }

  private remove(record: SessionRecord): void {
    // Its subagents go with it (a reload announces them again).
    for (const child of this.childrenOf(record.state.sessionId)) this.remove(child);
    record.state.dispose();
    this.sessions.delete(record.state.sessionId);
    try {
      record.scope.dispose();
    } catch (error) {
      this.deps.log.error(`Letting go of session ${record.state.sessionId} failed: ${errorMessage(error)}`);
    }
  }

  override dispose(): void {
    for (const record of this.sessions.values()) {
      record.state.dispose();
      record.scope.dispose();
    }
    for (const scope of this.agentScopes.values()) scope.dispose();
    this.agentScopes.clear();
    super.dispose();
  }

  /**
   * The session's turn is cancelled (or the session closes): its open questions are answered
   * `cancelled`, and a form still on its way is answered `cancel` when it arrives, until the next
   * turn begins. Later questions go to a fresh scope.
   */
  cancelQuestions(record: SessionRecord): void {
    const open = record.questions;
    record.questions = new Scope();
    record.turnCancelled = true;
    open.dispose();
    // A cancelled turn cancels its subagents' work too: their questions are let go with it.
    for (const child of this.childrenOf(record.state.sessionId)) this.cancelQuestions(child);
  }

  /** A turn of the session begins: its questions are asked again. */
  beginTurn(record: SessionRecord): void {
    record.turnCancelled = false;
  }

  /**
   * An agent ended (crash or stop): what lived while it ran goes (its terminals are killed, its
   * questions answered); its sessions stay readable, and none of them is active any more.
   */
  agentExited(connection: AgentConnection): void {
    const scope = this.agentScopes.get(connection);
    this.agentScopes.delete(connection);
    try {
      scope?.dispose();
    } finally {
      this.deactivateAgents((record) => record.connection === connection);
      this.stopSubagents(connection);
      this.changed();
    }
  }

  /**
   * A dead agent never says its subagents stopped: they stop here, so no block stays "running"
   * with a Stop that reaches nobody, and the parent's turn ends for the action log.
   */
  private stopSubagents(connection: AgentConnection): void {
    for (const record of this.sessions.values()) {
      if (record.connection !== connection) continue;
      if (record.parent) record.busy = false;
      if (record.state.subagentsStopped().length > 0) record.state.flushNow();
    }
  }

  private agentScopeOf(connection: AgentConnection): Scope {
    let scope = this.agentScopes.get(connection);
    if (!scope) {
      scope = new Scope();
      // An agent that already exited gets a disposed scope: what registers there goes at once.
      if (connection.process.isAlive) this.agentScopes.set(connection, scope);
      else scope.dispose();
    }
    return scope;
  }

  /** The open sessions of one agent connection. */
  sessionsOf(connection: AgentConnection): SessionRecord[] {
    return this.all.filter((s) => s.connection === connection);
  }

  /** The editor's id of a session the agent names by `agentSessionId`. */
  clientIdOf(connection: AgentConnection, agentSessionId: string): string {
    return this.aliases.clientId(connection, agentSessionId);
  }

  /**
   * The client handlers as one connection sees them: the session ids the agent sends become the
   * editor's, and a question about a session that another agent's connection owns is refused, so
   * one agent can never ask in another's session.
   */
  requestsFrom(from: () => AgentConnection | undefined, handlers: ClientRequestHandlers): ClientRequestHandlers {
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
    return beforeEachRequest(handlers, owned);
  }

  /**
   * Applies an update in arrival order, after those already queued for its session. With `from`, the update is as that agent sent it (its session ids); without, it names the
   * editor's session id and counts as coming from the session's own agent.
   */
  receiveUpdate(received: acp.SessionNotification, from?: AgentConnection): void {
    this.router.receive(received, from);
  }

  /**
   * What a permission request says of its tool call joins the session's card directly, after the
   * updates queued for the session before it (a session without a record has no card to join).
   */
  mergeToolCall(sessionId: string, toolCall: acp.ToolCallUpdate): void {
    this.updateQueue.submit(sessionId, () => this.sessions.get(sessionId)?.state.apply({ sessionUpdate: 'tool_call_update', ...toolCall }), (error) =>
      this.deps.log.error(`Update for session ${sessionId} failed: ${errorMessage(error)}`),
    );
  }

  private callApplied(sessionId: string, applied: ToolCallApplied): void {
    for (const listener of this.callListeners) {
      try {
        listener(sessionId, applied);
      } catch (error) {
        this.deps.log.error(`Tool call hook for session ${sessionId} failed: ${errorMessage(error)}`);
      }
    }
  }

  /** Resolves once the updates queued for the session so far have landed. */
  settled(sessionId: string): Promise<void> {
    return this.updateQueue.run(sessionId, () => undefined);
  }

  /** A `session/new` or `session/load` is in flight: updates for unknown ids are held; call the result when it settled. */
  beginCreate(): () => void {
    return this.early.beginCreate();
  }

  /**
   * Finds or creates the record of a session (from `session/new` or `session/load` only: an
   * update never creates one). Updates that arrived before it are applied first, in order, now,
   * before any queued after them.
   */
  recordFor(agentSessionId: string, agentKey: string, connection: AgentConnection, cwd?: string, additional: string[] = []): SessionRecord {
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
    return this.open({ sessionId, agentSessionId, agentKey, connection, cwd: cwd ?? roots.cwd, additional });
  }

  private open(init: {
    sessionId: string;
    agentSessionId: string;
    agentKey: string;
    connection: AgentConnection;
    cwd: string;
    additional: readonly string[];
    parent?: SessionRecord['parent'];
  }): SessionRecord {
    const { sessionId, connection } = init;
    const state: SessionState = new SessionState({
      sessionId,
      cwd: init.cwd,
      additionalDirectories: init.additional,
      onToolCallApplied: (applied) => this.callApplied(sessionId, applied),
      // Called only once updates apply, after the record below exists.
      onSubagent: (applied) => this.subagentAnnounced(record, applied),
      // A subagent's own traffic is not journaled: its card in the parent is.
      ...(init.parent || !this.deps.journal ? {} : { journal: this.deps.journal(sessionId) }),
    });
    const record: SessionRecord = {
      state,
      agentName: connection.name,
      agentKey: init.agentKey,
      agentSessionId: init.agentSessionId,
      connection,
      busy: false,
      loading: false,
      scope: new Scope(),
      agentScope: this.agentScopeOf(connection),
      questions: new Scope(),
      turnCancelled: false,
      ...(init.parent ? { parent: init.parent } : {}),
    };
    state.onDidChange((changes) => this.sessionChangeEmitter.fire({ session: record, changes }));
    this.sessions.set(sessionId, record);
    for (const update of this.early.take(init.agentSessionId)) state.apply(update as acp.SessionUpdate);
    this.changed();
    return record;
  }

  /**
   * A session announced a subagent (`subagent_update`, handled whether or not the client advertised
   * `subagents`): the first announcement opens the child's own session, bound to its parent, so the
   * child's traffic (updates, tool calls, questions) lands there and never on the parent. A child
   * whose id is another open session of the same agent is refused (shown as such), never merged.
   */
  private subagentAnnounced(parent: SessionRecord, applied: SubagentApplied): void {
    const { record: subagent } = applied;
    const existing = this.sessions.get(this.clientIdOf(parent.connection, subagent.childId));
    const mine = existing?.parent?.sessionId === parent.state.sessionId && existing.connection === parent.connection;
    if (mine) {
      const busy = subagent.activity === 'running' || subagent.activity === 'requires_action';
      if (existing.busy !== busy) {
        existing.busy = busy;
        this.changed();
      }
      return;
    }
    if (!applied.created) return;
    if (existing && existing.connection === parent.connection) {
      const why = `its session id is the open session ${existing.state.sessionId}; not merged`;
      this.deps.log.error(`Agent "${parent.connection.name}": subagent ${subagent.childId} of session ${parent.state.sessionId} refused: ${why}.`);
      parent.state.markSubagentCollision(subagent.childId, why);
      return;
    }
    // A dead predecessor's record of this child (a restarted agent replays the parent): replaced.
    if (existing && !existing.connection.process.isAlive && existing.agentKey === parent.agentKey && existing.agentSessionId === subagent.childId) this.remove(existing);
    const sessionId = this.aliases.assign(parent.connection, subagent.childId, subagent.childId, (id) => this.sessions.has(id));
    const child = this.open({
      sessionId,
      agentSessionId: subagent.childId,
      agentKey: parent.agentKey,
      connection: parent.connection,
      cwd: subagent.cwd ?? parent.state.cwd,
      additional: subagent.additionalDirectories ?? parent.state.additionalDirectories,
      parent: { sessionId: parent.state.sessionId, childId: subagent.childId },
    });
    child.busy = subagent.activity === 'running' || subagent.activity === 'requires_action';
    child.loading = parent.loading;
  }
}
