import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import { RestartThrottle } from './model/restartThrottle';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { AgentConnection } from '../wire/agentConnection';
import type { ClientRequestHandlers } from '../wire/clientMethods';
import type { AgentExit, AgentLaunch } from '../wire/agentProcess';
import { AgentPool } from './agentPool';

/** What a restart stopped and started: the session to continue, if its agent can load it. */
export interface Restarted {
  readonly agentKey: string;
  readonly connection: AgentConnection;
  /** The session of this agent that was active (or active when it stopped). */
  readonly previous: string | undefined;
}

/**
 * The agents' lifecycle: one process per agent, started on demand (`AgentPool`), stopped on its
 * own, restarted (throttled per agent: one agent crashing in a loop must not block restarting
 * another), restarted when its settings changed, and what happens when one exits. The sessions
 * stay in `AgentSessions`; continuing one after a restart is a session verb.
 */
export class Agents extends Disposable {
  private readonly pool: AgentPool;
  private readonly restarts = new Map<string, RestartThrottle>();

  constructor(
    private readonly deps: {
      log: Logger;
      sessions: AgentSessions;
      /** What the agent may ask: every connection gets these, as `sessions.requestsFrom` translates them. */
      requests: ClientRequestHandlers;
      /** How to start an agent, by its settings name. */
      launches: { resolve(agentKey: string): AgentLaunch; knows(agentKey: string): boolean };
      /** The agent new sessions start with when none is named (`acpNative.defaultAgent`). */
      config: { readonly defaultAgent: string };
      /** The URL forms an agent completes (`elicitation/complete`). */
      forms?: { complete(elicitationId: string): void };
      /** Sees every JSON-RPC line to and from an agent (the "ACP Trace" channel). */
      trace?: ((agentName: string, direction: 'send' | 'receive', line: string) => void) & { readonly isActive?: () => boolean };
    },
  ) {
    super();
    const { sessions } = deps;
    this.pool = new AgentPool({
      log: deps.log,
      resolveLaunch: (agentKey) => deps.launches.resolve(agentKey),
      handlersFor: (from) => sessions.requestsFrom(from, deps.requests),
      onSessionUpdate: (notification, from) => sessions.receiveUpdate(notification, from),
      onElicitationComplete: (elicitationId) => deps.forms?.complete(elicitationId),
      onExit: (connection, exit) => this.exited(connection, exit),
      trace: deps.trace,
    });
  }

  /** An agent of that key can be started (it is configured, or added from the ACP Registry). */
  knows(agentKey: string): boolean {
    return this.deps.launches.knows(agentKey);
  }

  /** The agent, started if it does not run (several callers share one start). */
  ensure(agentKey: string): Promise<AgentConnection> {
    return this.pool.ensure(agentKey);
  }

  /** An agent (the active session's, else the default one), started if needed (no session). */
  connect(agentKey?: string): Promise<AgentConnection> {
    return this.pool.ensure(agentKey ?? this.deps.sessions.active?.agentKey ?? this.deps.config.defaultAgent);
  }

  /** The agent's connection, if it runs. */
  running(agentKey: string): AgentConnection | undefined {
    return this.pool.running(agentKey);
  }

  /** The running agent of the active session, else the default agent if it runs. */
  get runningAgent(): AgentConnection | undefined {
    const active = this.deps.sessions.active;
    if (active?.connection.process.isAlive) return active.connection;
    return this.pool.running(this.deps.config.defaultAgent);
  }

  /** The settings names of the agents that run now. */
  get runningKeys(): string[] {
    return this.pool.runningKeys;
  }

  /** The settings name of a running agent's connection. */
  keyOf(connection: AgentConnection): string | undefined {
    return this.pool.keyOf(connection);
  }

  /**
   * Stops one agent (by its settings name), or every agent when none is named; their sessions
   * stay visible, their state kept. The other agents' sessions keep running.
   */
  async stop(agentKey?: string): Promise<void> {
    const keys = agentKey === undefined ? this.pool.keys : [agentKey];
    this.deps.sessions.deactivateAgents((record) => keys.includes(record.agentKey));
    await this.pool.stop(keys);
    this.deps.sessions.changed();
  }

  /** Stops the agent behind a connection (sign-in restarts an agent with new variables this way). */
  stopConnection(connection: AgentConnection): Promise<void> {
    const key = this.keyOf(connection);
    return key === undefined ? connection.dispose() : this.stop(key);
  }

  /**
   * Restarts an agent (the active session's, else the one active last, else the default;
   * throttled). Other agents keep running. The caller continues `previous` or starts a session.
   */
  async restart(agentKey?: string): Promise<Restarted> {
    const { sessions } = this.deps;
    const key = agentKey ?? sessions.active?.agentKey ?? sessions.lastActiveAgentKey() ?? this.deps.config.defaultAgent;
    let throttle = this.restarts.get(key);
    if (!throttle) this.restarts.set(key, (throttle = new RestartThrottle()));
    const allowed = throttle.tryRestart();
    if (!allowed.ok) {
      throw new Error(`Agent "${key}" was restarted too often; wait ${Math.ceil(allowed.retryInMs / 1000)} s before restarting it again.`);
    }
    const previous = sessions.reloadCandidate(key);
    await this.stop(key);
    const connection = await this.pool.ensure(key);
    return { agentKey: key, connection, previous };
  }

  /**
   * A session whose agent has stopped (the switcher can show one): its agent starts again, when
   * it can reload the session; otherwise the user is told to start a new session.
   */
  async revive(session: SessionRecord): Promise<AgentConnection> {
    const connection = await this.pool.ensure(session.agentKey);
    if (!connection.canLoadSession && !connection.canResumeSession) {
      throw new Error(`Agent "${session.agentName}" of this session stopped and cannot reload it; start a new session.`);
    }
    return connection;
  }

  /**
   * The agent's settings changed since it started (another program or arguments: a registry
   * update, the bundled agent's brain): a new session gets the agent as it is set up now. The
   * running process is stopped only while none of its sessions is in a turn.
   */
  async relaunchIfChanged(agentKey: string): Promise<void> {
    const wanted = this.pool.relaunchWanted(agentKey);
    const running = this.pool.running(agentKey);
    if (!wanted || !running) return;
    if (this.deps.sessions.sessionsOf(running).some((s) => s.busy)) {
      this.deps.log.info(`Agent "${running.name}" is set up differently now; it keeps running until its turns end.`);
      return;
    }
    this.deps.log.info(`Agent "${running.name}" is set up differently now (${wanted.command} ${wanted.args.join(' ')}): restarting it.`);
    await this.stop(agentKey);
  }

  override dispose(): void {
    this.pool.dispose();
    super.dispose();
  }

  /** One agent ended (crash or stop): its sessions' leftovers are cleaned up; other agents run on. */
  private exited(connection: AgentConnection, exit: AgentExit): void {
    this.deps.log.warn(`Agent "${connection.name}" exited (code ${exit.code}, signal ${exit.signal}).`);
    // What lived while it ran goes with its scope (terminals killed, questions answered).
    this.deps.sessions.agentExited(connection);
  }
}
