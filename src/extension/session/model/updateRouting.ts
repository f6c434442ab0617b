import type { SessionNotification, SessionUpdate } from '@agentclientprotocol/sdk';
import type { EarlyUpdates } from './earlyUpdates';
import type { KeyedSerialQueue } from '../../base/serialQueue';
import type { SessionState } from './sessionState';

/** What an update lands in: a session's state and the agent connection that owns it. */
export interface RoutedSession<Connection> {
  readonly state: SessionState;
  readonly connection: Connection;
}

export interface UpdateRouterOptions<Connection> {
  /** One chain per (editor) session id: updates apply in arrival order, after what is queued. */
  readonly queue: KeyedSerialQueue;
  /** The open sessions by the editor's id. */
  readonly sessions: ReadonlyMap<string, RoutedSession<Connection>>;
  /** Updates for ids without a record (a session being created, or an id nobody asked for). */
  readonly early: EarlyUpdates<SessionUpdate>;
  /** The editor's id of a session the agent of `connection` names `agentSessionId`. */
  readonly clientIdOf: (connection: Connection, agentSessionId: string) => string;
  /** Applying the update threw: logged, the session goes on. */
  readonly onError: (sessionId: string, error: unknown) => void;
}

/**
 * Routes each `session/update` to its session's state, in arrival order (see `KeyedSerialQueue`),
 * as `AgentSessions.receiveUpdate` does; its own module so the ingestion benchmark runs this very
 * code. Per update it allocates nothing of its own: the queue calls functions made once here with
 * the notification and its connection (a flood is thousands of updates a second, and each closure
 * with its context was garbage for the young generation to sweep).
 */
export class UpdateRouter<Connection> {
  constructor(private readonly options: UpdateRouterOptions<Connection>) {}

  /**
   * Queues `received` for its session. With `from`, the update is as that agent sent it (its
   * session ids); without, it names the editor's session id and counts as coming from the
   * session's own agent.
   */
  receive(received: SessionNotification, from?: Connection): void {
    const agentSessionId = received.sessionId;
    const sessionId = from === undefined ? agentSessionId : this.options.clientIdOf(from, agentSessionId);
    this.options.queue.submitWith(sessionId, this.deliver, received, from, this.failed);
  }

  /** Runs in the session's turn of the queue: `sessionId` is the editor's id, `received` the agent's notification. */
  private readonly deliver = (sessionId: string, received: SessionNotification, from: Connection | undefined): void => {
    const record = this.options.sessions.get(sessionId);
    // A record of a dead predecessor with the same id (or of another agent) is not this
    // session: the update is held, under the agent's id, for `session/new` or `session/load`.
    if (record && (from === undefined || record.connection === from)) record.state.apply(received.update);
    else this.options.early.receive(received.sessionId, received.update);
  };

  private readonly failed = (sessionId: string, error: unknown): void => {
    this.options.onError(sessionId, error);
  };
}
