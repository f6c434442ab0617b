import type * as acp from '@agentclientprotocol/sdk';
import type { Logger } from '../base/log';
import { AgentConnection } from '../wire/agentConnection';
import type { ClientRequestHandlers } from '../wire/clientMethods';
import type { AgentExit, AgentLaunch } from '../wire/agentProcess';

/** One agent's process: the connection once up, the start while it runs. */
interface AgentSlot {
  connection: AgentConnection | undefined;
  starting: Promise<AgentConnection> | undefined;
}

/**
 * The running agents, one process per agent (keyed by its settings name: `bundled`, an
 * `acpNative.agents` name, a registry agent), each started on demand and stopped on its own.
 */
export class AgentPool {
  private readonly agents = new Map<string, AgentSlot>();

  constructor(
    private readonly deps: {
      log: Logger;
      resolveLaunch: (agentKey: string) => AgentLaunch;
      /** The client handlers as this connection sees them (`from` is set once it is up). */
      handlersFor: (from: () => AgentConnection | undefined) => ClientRequestHandlers;
      onSessionUpdate: (notification: acp.SessionNotification, from: AgentConnection | undefined) => void;
      /** `elicitation/complete` from an agent. */
      onElicitationComplete?: (elicitationId: string) => void;
      /** An agent ended (crash or stop), after the pool forgot it. */
      onExit: (connection: AgentConnection, exit: AgentExit) => void;
      trace?: (((agentName: string, direction: 'send' | 'receive', line: string) => void) & { readonly isActive?: () => boolean }) | undefined;
    },
  ) {}

  /** The agent's connection, if it runs. */
  running(agentKey: string): AgentConnection | undefined {
    const connection = this.agents.get(agentKey)?.connection;
    return connection?.process.isAlive ? connection : undefined;
  }

  /** The settings names of the agents that run now. */
  get runningKeys(): string[] {
    return [...this.agents].filter(([, slot]) => slot.connection?.process.isAlive).map(([key]) => key);
  }

  /** The settings names of the agents started or starting. */
  get keys(): string[] {
    return [...this.agents.keys()];
  }

  /** The settings name of a running agent's connection. */
  keyOf(connection: AgentConnection): string | undefined {
    for (const [key, slot] of this.agents) if (slot.connection === connection) return key;
    return undefined;
  }

  /**
   * The agent runs, but its settings now say another program or other arguments (a registry
   * update, the bundled agent's brain): undefined when it does not run or is set up as it was.
   */
  relaunchWanted(agentKey: string): AgentLaunch | undefined {
    const running = this.running(agentKey);
    if (!running) return undefined;
    let wanted: AgentLaunch;
    try {
      wanted = this.deps.resolveLaunch(agentKey);
    } catch {
      return undefined; // starting it says why, when it must start
    }
    const now = running.process.launch;
    return wanted.command === now.command && wanted.args.join('\0') === now.args.join('\0') ? undefined : wanted;
  }

  /** The agent, started if it does not run (several callers share one start). */
  ensure(agentKey: string): Promise<AgentConnection> {
    let slot = this.agents.get(agentKey);
    if (slot?.connection?.process.isAlive) return Promise.resolve(slot.connection);
    if (slot?.starting) return slot.starting;
    if (!slot) {
      slot = { connection: undefined, starting: undefined };
      this.agents.set(agentKey, slot);
    }
    const owner = slot;
    const launch = this.deps.resolveLaunch(agentKey);
    this.deps.log.info(`Starting agent "${launch.name}": ${launch.command} ${launch.args.join(' ')}`);
    // Updates and questions name sessions of the connection that sent them: a restarted agent
    // reuses ids, and two agents may both be asked about "their" session 1.
    let from: AgentConnection | undefined;
    const trace = this.deps.trace;
    owner.starting = AgentConnection.start({
      launch,
      handlers: this.deps.handlersFor(() => from),
      onSessionUpdate: (notification) => this.deps.onSessionUpdate(notification, from),
      onElicitationComplete: (elicitationId) => this.deps.onElicitationComplete?.(elicitationId),
      log: this.deps.log,
      ...(trace ? { trace: Object.assign((direction: 'send' | 'receive', line: string) => trace(launch.name, direction, line), { isActive: trace.isActive }) } : {}),
    }).then(
      (connection) => {
        from = connection;
        owner.starting = undefined;
        if (this.agents.get(agentKey) !== owner) {
          // Stopped while it started: nobody wants it any more.
          void connection.dispose();
          throw new Error(`Agent "${launch.name}" was stopped while it started.`);
        }
        owner.connection = connection;
        void connection.exited.then((exit) => {
          if (owner.connection === connection) {
            owner.connection = undefined;
            if (this.agents.get(agentKey) === owner && !owner.starting) this.agents.delete(agentKey);
          }
          this.deps.onExit(connection, exit);
        });
        return connection;
      },
      (error: unknown) => {
        owner.starting = undefined;
        if (this.agents.get(agentKey) === owner && !owner.connection) this.agents.delete(agentKey);
        throw error;
      },
    );
    return owner.starting;
  }

  /** Stops these agents (all when none are named); a start under way is dropped. */
  async stop(agentKeys: readonly string[] = this.keys): Promise<void> {
    const stopping: Promise<void>[] = [];
    for (const key of agentKeys) {
      const slot = this.agents.get(key);
      if (!slot) continue;
      this.agents.delete(key);
      if (slot.connection) stopping.push(slot.connection.dispose());
    }
    await Promise.all(stopping);
  }

  dispose(): void {
    for (const slot of this.agents.values()) void slot.connection?.dispose();
    this.agents.clear();
  }
}
