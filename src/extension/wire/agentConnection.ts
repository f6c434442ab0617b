import * as acp from '@agentclientprotocol/sdk';
import type { ClientCapabilities, ForkSessionRequest, ForkSessionResponse } from '@agentclientprotocol/sdk/unstable';
import { TERMINAL_OUTPUT_CAPABILITY } from '../../protocol/terminalMeta';
import { isAuthRequired, parseAuthMethods, TERMINAL_AUTH_META, type AuthMethod } from '../agents/signIn/model/authMethods';
import { checkSessionNotification, isUnknownUpdateKind, type UpdateProblem } from './updateShape';
import type { Logger } from '../base/log';
import { version as packageVersion } from '../../../package.json';
import { AgentProcess, type AgentExit, type AgentLaunch, type ProtocolTap } from './agentProcess';
import { onClientRequests, type ClientRequestHandlers } from './clientMethods';
import { STEERING_METHOD, steeringSupported } from '../queue/model/steering';
import { forkSupportOf, type ForkSupport } from '../session/model/resend';

/** `session/fork`: not among the stable entry point's methods. */
const FORK_METHOD = 'session/fork';

export type { ClientRequestHandlers } from './clientMethods';

export class AgentExitedError extends Error {
  constructor(
    readonly agentName: string,
    readonly exit: AgentExit,
  ) {
    const how = exit.reason
      ? `was stopped: ${exit.reason}`
      : exit.signal
        ? `was killed by ${exit.signal}`
        : `exited with code ${exit.code ?? 'unknown'}`;
    const tail = exit.stderrTail.length ? `\n${exit.stderrTail.slice(-5).join('\n')}` : '';
    super(`Agent "${agentName}" ${how}.${tail}`);
  }
}

/**
 * The ACP client side of one agent process: initialize, sessions, prompts. The only place on the
 * client that speaks ACP; everything it receives goes to the handlers and the update sink.
 */
export class AgentConnection {
  /** The agent's sign-in methods, read from `initialize` as it came over the wire. */
  readonly authMethods: readonly AuthMethod[];

  private constructor(
    readonly process: AgentProcess,
    private readonly connection: acp.ClientConnection,
    readonly initializeResponse: acp.InitializeResponse,
    log: Logger,
  ) {
    // Read as unknown, with our own parser: the SDK's types know only `agent` and `terminal`
    // methods, while Codex sends `env_var` ones with their `vars`. The SDK hands `initialize`'s
    // result over unparsed (a unit test pins this: a tap on the message stream cost 5-10x per
    // message, so none is used).
    const { methods, skipped } = parseAuthMethods((initializeResponse as { authMethods?: unknown }).authMethods);
    this.authMethods = methods;
    if (skipped.length) log.info(`[${this.name}] sign-in methods of unknown kinds left out: ${skipped.join(', ')}`);
  }

  static async start(options: {
    launch: AgentLaunch;
    handlers: ClientRequestHandlers;
    onSessionUpdate: (notification: acp.SessionNotification) => void;
    /** `elicitation/complete`: the agent is done with the URL form of this id. */
    onElicitationComplete?: (elicitationId: string) => void;
    log: Logger;
    /** Sees every JSON-RPC line both ways (the "ACP Trace" channel). */
    trace?: ProtocolTap;
  }): Promise<AgentConnection> {
    const { launch, handlers, log } = options;
    const agentProcess = new AgentProcess(launch, log, options.trace);
    const reportRejected = oncePerKind(log);
    const reportUnknownKind = oncePerKind(log);
    const reportNewerValue = oncePerKind(log, 'value');
    const app = acp
      .client({ name: 'acp-native' })
      // Raw params, checked by our own validator (wire/updateShape.ts) instead of the SDK's zod
      // schema, which cost 20-40x a JSON.parse per update. A rejected update changes nothing.
      .onNotification(acp.methods.client.session.update, rawParams, ({ params }) => {
        const checked = checkSessionNotification(params);
        if (!checked.ok) return reportRejected(launch.name, checked.problem);
        if (isUnknownUpdateKind(checked.notification)) reportUnknownKind(launch.name, checked.notification.update.sessionUpdate);
        // Nearly always absent: no empty list and iterator per update.
        if (checked.newerValues) for (const value of checked.newerValues) reportNewerValue(launch.name, value);
        options.onSessionUpdate(checked.notification);
      })
      .onNotification(acp.methods.client.elicitation.complete, rawParams, ({ params }) => {
        const elicitationId = (params as { elicitationId?: unknown } | null)?.elicitationId;
        if (typeof elicitationId === 'string') options.onElicitationComplete?.(elicitationId);
      });
    // Every request the agent may send, from the one table (wire/clientMethods.ts).
    onClientRequests(app, handlers);
    removeSdkSessionRouter(app, log);
    const connection = app.connect(agentProcess.stream());
    // Typed from `/unstable` (plan operations are there in SDK 2.4); the SDK sends it as it is.
    const clientCapabilities: ClientCapabilities = {
      fs: { readTextFile: true, writeTextFile: true },
      terminal: true,
      // Sign-in by running the agent's own login program in a terminal (Claude's adapter reads
      // the `_meta` flag and then names the exact program in `_meta["terminal-auth"]`).
      auth: { terminal: true },
      elicitation: { form: {}, url: {} },
      // Notices, compactions and boolean options are shown as such (else agents send stand-ins).
      session: { notices: {}, compaction: {}, configOptions: { boolean: {} } },
      // `plan_update` / `plan_removed`: markdown and file plans as cards.
      plan: {},
      // Subagents as child sessions of their own (`subagent_update`, `session_message`), not as
      // one opaque call whose children's calls land on the parent.
      subagents: {},
      _meta: { [TERMINAL_OUTPUT_CAPABILITY]: true, [TERMINAL_AUTH_META]: true },
    };
    const initialize = connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities,
      clientInfo: { name: 'acp-native', title: 'ACP Native', version: packageVersion },
    });
    let response: acp.InitializeResponse;
    try {
      response = await raceExit(initialize, agentProcess, launch.name);
    } catch (error) {
      connection.close();
      await agentProcess.stop();
      throw error;
    }
    if (response.protocolVersion !== acp.PROTOCOL_VERSION) {
      connection.close();
      await agentProcess.stop();
      throw new Error(
        `Agent "${launch.name}" speaks ACP protocol version ${String(response.protocolVersion)}; ACP Native speaks version ${acp.PROTOCOL_VERSION}.`,
      );
    }
    void agentProcess.exited.then(() => connection.close());
    const agentConnection = new AgentConnection(agentProcess, connection, response, log);
    void connection.closed.then(() => agentConnection.connectionClosed(connection.signal.reason, log));
    return agentConnection;
  }

  private disposing = false;

  /**
   * The connection closed while the process may live on (a message over the size limit, a broken
   * pipe): nothing can reach the agent any more, so it is as good as dead. Stop it, so its exit
   * runs the usual cleanup (questions answered, terminals killed) and the next prompt starts a
   * fresh agent, instead of every later prompt failing on a dead connection.
   */
  private async connectionClosed(reason: unknown, log: Logger): Promise<void> {
    if (this.disposing || !this.process.isAlive) return;
    if (this.process.hasClosedOutput) {
      // It closed its stdout: it is exiting; give it the time to say how.
      const exited = await Promise.race([this.process.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), EXIT_STATUS_WAIT_MS))]);
      if (exited || this.disposing) return;
    }
    const why = reason instanceof Error ? reason.message : 'the connection closed';
    const message = `its connection broke (${why})`;
    log.error(`Agent "${this.name}" ${message}; stopping it.`);
    await this.process.stop({ graceMs: 1000, reason: message });
  }

  get name(): string {
    return this.process.launch.name;
  }

  get exited(): Promise<AgentExit> {
    return this.process.exited;
  }

  get canLoadSession(): boolean {
    return this.initializeResponse.agentCapabilities?.loadSession === true;
  }

  /** The agent continues a session without replaying it on `session/resume` (`sessionCapabilities.resume`). */
  get canResumeSession(): boolean {
    return this.initializeResponse.agentCapabilities?.sessionCapabilities?.resume != null;
  }

  /** The agent frees a session on `session/close` (`sessionCapabilities.close`). */
  get canCloseSession(): boolean {
    return this.initializeResponse.agentCapabilities?.sessionCapabilities?.close != null;
  }

  /** What the agent's `session/fork` can do (`sessionCapabilities.fork`, unstable). */
  get forkSupport(): ForkSupport {
    return forkSupportOf(this.initializeResponse.agentCapabilities?.sessionCapabilities);
  }

  /** The agent supports `logout` (`agentCapabilities.auth.logout`). */
  get canLogout(): boolean {
    return this.initializeResponse.agentCapabilities?.auth?.logout != null;
  }

  /** `authenticate`; the `_meta` may carry a key (never logged). Never for a terminal method. */
  async authenticate(methodId: string, meta?: Record<string, unknown>): Promise<void> {
    await this.request(acp.methods.agent.authenticate, { methodId, ...(meta ? { _meta: meta } : {}) });
  }

  async logout(): Promise<void> {
    await this.request(acp.methods.agent.logout, {});
  }

  newSession(params: acp.NewSessionRequest): Promise<acp.NewSessionResponse> {
    return this.request(acp.methods.agent.session.new, params);
  }

  loadSession(params: acp.LoadSessionRequest): Promise<acp.LoadSessionResponse> {
    return this.request(acp.methods.agent.session.load, params).then((r) => r ?? {});
  }

  resumeSession(params: acp.ResumeSessionRequest): Promise<acp.ResumeSessionResponse> {
    return this.request(acp.methods.agent.session.resume, params).then((r) => r ?? {});
  }

  listSessions(params: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse> {
    return this.request(acp.methods.agent.session.list, params);
  }

  async closeSession(params: acp.CloseSessionRequest): Promise<void> {
    await this.request(acp.methods.agent.session.close, params);
  }

  async deleteSession(params: acp.DeleteSessionRequest): Promise<void> {
    await this.request(acp.methods.agent.session.delete, params);
  }

  /**
   * `session/fork` (unstable in SDK 2.4, so by its raw name), with the draft RFD's `messageId`
   * when given: a new session with the source's conversation up to and including that message.
   */
  forkSession(params: ForkSessionRequest & { messageId?: string }): Promise<ForkSessionResponse> {
    const died = this.process.exited.then((exit) => {
      throw new AgentExitedError(this.name, exit);
    });
    died.catch(() => undefined);
    return Promise.race([this.connection.agent.request<ForkSessionResponse>(FORK_METHOD, params), died]);
  }

  setMode(params: acp.SetSessionModeRequest): Promise<unknown> {
    return this.request(acp.methods.agent.session.setMode, params);
  }

  setConfigOption(params: acp.SetSessionConfigOptionRequest): Promise<acp.SetSessionConfigOptionResponse> {
    return this.request(acp.methods.agent.session.setConfigOption, params);
  }

  prompt(params: acp.PromptRequest): Promise<acp.PromptResponse> {
    return this.request(acp.methods.agent.session.prompt, params);
  }

  async cancel(sessionId: string): Promise<void> {
    if (!this.process.isAlive) return;
    await this.connection.agent.notify(acp.methods.agent.session.cancel, { sessionId });
  }

  async dispose(): Promise<void> {
    this.disposing = true;
    this.connection.close();
    await this.process.stop();
  }

  /** The agent serves `_session/steering` (`_meta.steering.supported === true` in its `initialize` result). */
  get canSteer(): boolean {
    return steeringSupported(this.initializeResponse);
  }

  /**
   * `_session/steering` by its raw name (no SDK type knows it); the answer is read by the caller.
   * An error answer comes back at once: unlike other requests it does not wait for an exit status
   * (the steer is queued instead, and the turn may end any moment).
   */
  steer(params: { sessionId: string; prompt: readonly acp.ContentBlock[]; _meta: unknown }): Promise<unknown> {
    const died = this.process.exited.then((exit) => {
      throw new AgentExitedError(this.name, exit);
    });
    died.catch(() => undefined);
    return Promise.race([this.connection.agent.request<unknown>(STEERING_METHOD, params), died]);
  }

  /** Every request fails promptly with the agent's exit status if the agent dies meanwhile. */
  private request<M extends acp.AgentRequestMethod>(method: M, params: acp.AgentRequestParamsByMethod[M]) {
    return raceExit(this.connection.agent.request(method, params), this.process, this.name);
  }
}

function rawParams(params: unknown): unknown {
  return params;
}

/** Logs a rejected update once per kind of problem (an agent repeats its mistakes per update). */
function oncePerKind(log: Logger, newer: 'kind' | 'value' = 'kind'): (agentName: string, problem: UpdateProblem | string) => void {
  const seen = new Set<string>();
  return (agentName, problem) => {
    const kind = typeof problem === 'string' ? problem : problem.kind;
    if (seen.has(kind)) return;
    seen.add(kind);
    if (typeof problem === 'string') {
      log.info(
        newer === 'kind'
          ? `[${agentName}] session/update "${problem}" is newer than ACP Native: ignored (logged once).`
          : `[${agentName}] session/update ${problem} is newer than ACP Native: the call is shown without it (logged once).`,
      );
    } else {
      log.warn(`[${agentName}] ${problem.message}. Further updates with this problem are rejected without a log line.`);
    }
  };
}

/** `describe()` of the handler the SDK's `ClientApp` constructor installs (SDK 2.x). */
export const SDK_SESSION_ROUTER = 'client-session-update-router';
let routerMissingLogged = false;

/**
 * Takes the SDK's session router out of a client app before it connects. The SDK installs it in
 * every `ClientApp` to feed its own `ActiveSession` helpers (`cx.session(...)`), which ACP Native
 * does not use (it sends `session/new` and friends itself and reads updates in its own handler);
 * yet it zod-parses every `session/update` first, and throws the result away: 20-40x a JSON.parse
 * per update, most of a `session/load` replay's cost. It reaches into the SDK's private `builder`:
 * if a later SDK moves it, this logs once and leaves the app as it is (slower, still correct).
 * A unit test pins the SDK's structure so an upgrade that moves it fails there first.
 */
export function removeSdkSessionRouter(app: acp.ClientApp, log?: Logger): boolean {
  let removed = false;
  try {
    const handlers = (app as unknown as { builder?: { handlers?: unknown } }).builder?.handlers;
    if (Array.isArray(handlers)) {
      const index = handlers.findIndex((handler: unknown) => describeHandler(handler) === SDK_SESSION_ROUTER);
      if (index >= 0) {
        handlers.splice(index, 1);
        removed = true;
      }
    }
  } catch {
    removed = false;
  }
  if (!removed && log && !routerMissingLogged) {
    routerMissingLogged = true;
    log.info(`The ACP SDK's session router was not found (SDK changed?): session/update keeps its extra validation, which is slower.`);
  }
  return removed;
}

function describeHandler(handler: unknown): unknown {
  const describe = (handler as { describe?: unknown } | null)?.describe;
  return typeof describe === 'function' ? (describe as () => unknown).call(handler) : undefined;
}

/** How long to wait for the exit status after the connection closed under a request. */
const EXIT_STATUS_WAIT_MS = 2000;

async function raceExit<T>(request: Promise<T>, agentProcess: AgentProcess, name: string): Promise<T> {
  const died = agentProcess.exited.then((exit) => {
    throw new AgentExitedError(name, exit);
  });
  died.catch(() => undefined);
  // When the agent dies, its stdout usually closes before the exit is reported, so the request
  // fails first with "connection closed". The exit status and stderr say more: wait for them.
  const settled = request.catch(async (error: unknown) => {
    // An error answer (a JSON-RPC code: "sign in first", a refused resume) comes from a live
    // agent: no exit status to wait for. A closed connection rejects with a plain Error.
    if (isAuthRequired(error) || typeof (error as { code?: unknown } | null)?.code === 'number') throw error;
    const exit = await Promise.race([agentProcess.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), EXIT_STATUS_WAIT_MS))]);
    throw exit ? new AgentExitedError(name, exit) : error;
  });
  return Promise.race([settled, died]);
}
