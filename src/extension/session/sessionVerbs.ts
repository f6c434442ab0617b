import type * as acp from '@agentclientprotocol/sdk';
import { errorMessage, type Logger } from '../base/log';
import type { AgentConnection } from '../wire/agentConnection';
import type { Agents } from '../agents/agents';
import type { SignInRetry } from '../agents/signIn/signInRetry';
import type { AgentSessions, SessionRecord } from './agentSessions';
import { checkPromptSize, PromptTooLargeError } from './model/promptSize';
import { steerOutcome, steeringParams, type SteerOutcome } from '../queue/model/steering';
import type { TurnOutcome } from '../queue/model/promptQueue';
import { notesPreamble } from '../partialApproval/model/agentNotes';
import type { ReadJournal } from './model/sessionJournal';

/** How long Close Session waits for the agent to answer `session/close` (it is closed here regardless). */
const CLOSE_ANSWER_WAIT_MS = 5000;
/**
 * How long a steer waits for the agent's answer (Claude's adapter answers within ~15 ms): past it
 * the text goes to the queue, so a silent agent never holds the person's message hostage.
 */
export const STEER_ANSWER_WAIT_MS = 3000;

export type TurnEndListener = (session: SessionRecord, outcome: TurnOutcome) => void;

/**
 * The ACP verbs on a session: prompt, cancel, new, load, list, mode, config option, close (and
 * continuing a session after its agent restarted). Everything acts on one session, through its
 * own agent's connection; the records are `AgentSessions`', the processes `Agents`'.
 */
export class SessionVerbs {
  private readonly turnEndListeners = new Set<TurnEndListener>();
  /** The session the user asked for last (New Session…) while it starts: a prompt with none active goes to it. */
  private starting: Promise<SessionRecord> | undefined;

  constructor(
    private readonly deps: {
      log: Logger;
      sessions: AgentSessions;
      agents: Agents;
      signIn: SignInRetry;
      /** The agent new sessions start with when none is named (`acpNative.defaultAgent`); the prompt size limit. */
      config: { readonly defaultAgent: string; readonly promptMaxBytes?: number };
      /** The session's cwd and the other roots. */
      workspaceRoots: () => { cwd: string; additional: string[] };
      /** The MCP servers for a session of this agent (what it can take), read at each session start. */
      mcpServers: { serversFor(connection: AgentConnection): Promise<{ servers: acp.McpServer[] }> };
      /** A turn begins: what the agent changes from now on belongs to it (the action log). */
      turns: { beginTurn(sessionId: string, turn: number): void };
      /** A checkpoint of the whole workspace before each prompt is sent and after its turn (never rejects). */
      checkpoints?: { take(sessionId: string, turn: number, phase: 'begin' | 'end'): Promise<unknown> };
      /**
       * What the agent must hear first and could not be told by steering (a partial approval's
       * outcome): the text that opens the session's next prompt, taken once sent.
       */
      notes?: { take(sessionId: string): string[]; add(sessionId: string, text: string): void };
      /** What each session's state was fed, as recorded here: what `session/resume` shows again (see `resumeOnce`). */
      journals?: SessionJournalAccess;
      /** The agent a session that is not open was with here (Session History's record), if known. */
      recordedAgentOf?: (sessionId: string) => string | undefined;
    },
  ) {}

  /** Called after each turn of any session ended (its updates landed), with how it ended. */
  onTurnEnded(listener: TurnEndListener): { dispose(): void } {
    this.turnEndListeners.add(listener);
    return { dispose: () => this.turnEndListeners.delete(listener) };
  }

  /**
   * Tells a session's running turn something (`_session/steering`, always with the
   * `promptRequired` opt-in). `injected`: the text is recorded as the user's message at that point
   * of the conversation. `promptRequired`: no turn runs; nothing happened, the caller sends it as a
   * prompt. An agent that does not advertise steering, an error or no answer within
   * {@link STEER_ANSWER_WAIT_MS}: `failed` with the reason (the turn is never blocked on it).
   */
  async steer(sessionId: string, prompt: string | acp.ContentBlock[]): Promise<SteerOutcome> {
    const session = this.deps.sessions.session(sessionId);
    if (!session) throw new Error(`There is no open session ${sessionId}.`);
    const blocks: acp.ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    const { connection } = session;
    if (!connection.canSteer) return { kind: 'failed', reason: `${session.agentName} does not take messages during a turn` };
    if (!connection.process.isAlive) return { kind: 'failed', reason: `${session.agentName} is not running` };
    let timer: NodeJS.Timeout | undefined;
    const answered = connection.steer(steeringParams(session.agentSessionId, blocks)).then(steerOutcome, (error: unknown) => ({ kind: 'failed' as const, reason: errorMessage(error) }));
    const noAnswer: SteerOutcome = { kind: 'failed', reason: `${session.agentName} did not answer within ${STEER_ANSWER_WAIT_MS / 1000} s` };
    const timedOut = new Promise<SteerOutcome>((resolve) => {
      timer = setTimeout(() => resolve(noAnswer), STEER_ANSWER_WAIT_MS);
    });
    const outcome = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
    if (outcome.kind === 'failed') this.deps.log.warn(`Steering session ${sessionId} failed: ${outcome.reason}`);
    if (outcome.kind === 'injected') await this.recordSteer(session, blocks);
    if (outcome !== noAnswer) return outcome;
    // The answer may still come: an agent that takes the steer late has it in its turn, so it
    // shows as the user's message then (and the caller takes its queued copy back).
    const late = answered.then(async (answer) => {
      if (answer.kind === 'injected' && this.deps.sessions.session(sessionId) === session) {
        this.deps.log.info(`Session ${sessionId}: the agent took the steer late.`);
        await this.recordSteer(session, blocks);
      }
      return answer;
    });
    return { ...noAnswer, late };
  }

  /** A steer the running turn took: the user's message at this point, after what the agent sent before it. */
  private async recordSteer(session: SessionRecord, blocks: acp.ContentBlock[]): Promise<void> {
    await this.deps.sessions.settled(session.state.sessionId);
    session.state.recordPrompt(blocks);
    session.state.flushNow();
  }

  /**
   * Sends a prompt to a session (the active one by default), starting an agent and a session when
   * there is none: the agent of the session that was active last, else the default agent.
   */
  async prompt(prompt: string | acp.ContentBlock[], sessionId?: string, options: { shown?: acp.ContentBlock[] } = {}): Promise<acp.StopReason> {
    const { sessions } = this.deps;
    const blocks: acp.ContentBlock[] = typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt;
    // Before any agent starts or the prompt is recorded: an oversized line would end the agent's
    // connection (and the session) instead of being answered.
    const limit = this.deps.config.promptMaxBytes;
    const tooLarge = limit === undefined ? undefined : checkPromptSize([{ name: 'The prompt', blocks }], limit);
    if (tooLarge) throw new PromptTooLargeError(tooLarge);
    // Typed while the session the user just asked for starts: it waits for that session rather
    // than going to the one shown before or starting one of another agent.
    const pending = sessionId === undefined ? await this.startingSession : undefined;
    const target = sessionId === undefined ? pending : sessions.session(sessionId);
    if (sessionId !== undefined && !target) throw new Error(`There is no open session ${sessionId}.`);
    if (target?.parent) throw new Error('A subagent takes its work from its parent session: prompt the parent instead.');
    const agentKey = target?.agentKey ?? sessions.active?.agentKey ?? sessions.lastActiveAgentKey();
    // A sign-in may restart the agent, so the retry asks again for the session; the prompt is
    // shown once per session it is sent to.
    const recordedIn = new Set<SessionRecord>();
    return this.deps.signIn.run(agentKey, async () => {
      let session = target ?? sessions.active ?? (await this.newSessionOnce(agentKey));
      if (!session.connection.process.isAlive) {
        await this.deps.agents.revive(session);
        session = await this.loadSessionOnce(session.agentSessionId, session.agentKey);
      }
      if (!recordedIn.has(session)) {
        recordedIn.add(session);
        // What the conversation shows: the blocks sent, unless the caller sends more than was typed
        // (Edit & resend's earlier conversation, shown as the messages it copies).
        session.state.recordPrompt(options.shown ?? blocks);
      }
      return this.promptOnce(session, blocks);
    });
  }

  private async promptOnce(session: SessionRecord, blocks: acp.ContentBlock[]): Promise<acp.StopReason> {
    // ACP runs one turn at a time per session.
    if (session.busy) throw new Error('The agent is still working on the last prompt; wait for it or cancel it first.');
    const { sessions } = this.deps;
    const { sessionId } = session.state;
    const turn = session.state.turn;
    // The action log's turn first: what changes on disk while the checkpoint is taken is the new turn's, as before.
    this.deps.turns.beginTurn(sessionId, turn);
    sessions.beginTurn(session);
    session.busy = true;
    sessions.changed();
    let outcome: TurnOutcome = { kind: 'failed', message: 'The turn ended without an answer.' };
    try {
      // Busy meanwhile: a second prompt queues, and Cancel is for this turn.
      await this.deps.checkpoints?.take(sessionId, turn, 'begin').catch(() => undefined);
      if (session.turnCancelled) {
        // Cancelled while the checkpoint was taken: the agent never hears of the prompt.
        outcome = { kind: 'stopped', stopReason: 'cancelled' };
        return 'cancelled';
      }
      const notes = this.deps.notes?.take(sessionId) ?? [];
      const sent: acp.ContentBlock[] = notes.length === 0 ? blocks : [{ type: 'text', text: notesPreamble(notes) }, ...blocks];
      const response = await session.connection.prompt({ sessionId: session.agentSessionId, prompt: sent }).catch((error: unknown) => {
        // Not heard: the notes wait for the prompt after.
        for (const note of notes) this.deps.notes?.add(sessionId, note);
        throw error;
      });
      outcome = { kind: 'stopped', stopReason: response.stopReason };
      return response.stopReason;
    } catch (error) {
      outcome = { kind: 'failed', message: errorMessage(error) };
      throw error;
    } finally {
      session.busy = false;
      // Updates sent before the response was written are queued; let them land first.
      await sessions.settled(session.state.sessionId);
      session.state.endTurn();
      session.state.flushNow();
      sessions.changed();
      // What the turn left, before the user edits on: their later edits are told from the agent's by
      // it. The session is no longer busy meanwhile; the prompt's caller hears of the end after it.
      await this.deps.checkpoints?.take(sessionId, turn, 'end').catch(() => undefined);
      this.turnEnded(session, outcome);
    }
  }

  private turnEnded(session: SessionRecord, outcome: TurnOutcome): void {
    for (const listener of this.turnEndListeners) {
      try {
        listener(session, outcome);
      } catch (error) {
        this.deps.log.error(`After the turn of session ${session.state.sessionId}: ${errorMessage(error)}`);
      }
    }
  }

  /** Cancels a session's running turn (the active session's by default), through its own agent. */
  async cancel(sessionId = this.deps.sessions.active?.state.sessionId): Promise<void> {
    const session = sessionId ? this.deps.sessions.session(sessionId) : undefined;
    if (session?.parent) return this.stopSubagent(session, session.parent);
    if (!session?.busy) return;
    // The agent hears of the cancel first, so it reads the `cancelled` answers that follow as
    // part of it rather than as a refusal of one call.
    await session.connection.cancel(session.agentSessionId);
    this.deps.sessions.cancelQuestions(session);
  }

  /**
   * Stops one subagent's work, not its parent's turn: `session/cancel` with the child's id, which
   * the agent allows only when the child's `capabilities.cancel` is there.
   */
  private async stopSubagent(child: SessionRecord, parent: NonNullable<SessionRecord['parent']>): Promise<void> {
    const subagent = this.deps.sessions.session(parent.sessionId)?.state.subagent(parent.childId);
    if (!subagent) return;
    if (!subagent.cancellable) throw new Error('The agent does not let this subagent be stopped on its own; stop its parent\'s turn instead.');
    if (subagent.activity !== 'running' && subagent.activity !== 'requires_action') return;
    await child.connection.cancel(child.agentSessionId);
    this.deps.sessions.cancelQuestions(child);
  }

  /**
   * Closes an open session: its running turn is cancelled first, then its record goes (its cards,
   * questions and "always" answers with it). Its agent keeps running for its other sessions. The
   * newest remaining session becomes active. An agent that can (`sessionCapabilities.close`) is
   * told with `session/close`, so it frees what it holds for the session; the editor does not wait
   * on that answer for longer than {@link CLOSE_ANSWER_WAIT_MS}.
   */
  async closeSession(sessionId: string): Promise<void> {
    const session = this.deps.sessions.session(sessionId);
    if (!session) return;
    if (session.busy) await this.cancel(sessionId);
    // Its questions are answered `cancelled` whether or not a turn was running.
    this.deps.sessions.cancelQuestions(session);
    this.deps.sessions.close(session);
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
   * Restarts an agent (the active session's, else the default; throttled) and continues its
   * session where the agent can load it, else starts a new one. Other agents keep running.
   */
  async restart(agentKey?: string): Promise<SessionRecord> {
    const { agentKey: key, connection, previous } = await this.deps.agents.restart(agentKey);
    if (previous && (connection.canLoadSession || connection.canResumeSession)) {
      try {
        return await this.loadSession(previous, key);
      } catch (error) {
        this.deps.log.warn(`Could not reload session ${previous} after the restart: ${errorMessage(error)}`);
        const fresh = await this.newSession(key);
        fresh.state.apply({
          sessionUpdate: 'notice',
          severity: 'warning',
          title: `${connection.name} could not continue the earlier session: this is a new one.`,
          description: errorMessage(error),
        });
        fresh.state.flushNow();
        return fresh;
      }
    }
    return this.newSession(key);
  }

  /**
   * Starts a new session with an agent (the default one unless named), starting it if needed, and
   * makes it active (with `show: false` the caller does, once it filled in what it shows first).
   */
  async newSession(agentKey?: string, options: { show?: boolean } = {}): Promise<SessionRecord> {
    const key = agentKey ?? this.deps.config.defaultAgent;
    const started = (async () => {
      await this.deps.agents.relaunchIfChanged(key);
      return this.deps.signIn.run(key, () => this.newSessionOnce(key, options.show ?? true));
    })();
    // Only a session that will be shown: what the user types meanwhile is meant for it.
    if (options.show ?? true) this.starting = started;
    try {
      return await started;
    } finally {
      if (this.starting === started) this.starting = undefined;
    }
  }

  /**
   * The new session the user asked for, while it starts (undefined once it is up or failed):
   * a prompt typed meanwhile is for it, not for the session shown until then.
   */
  get startingSession(): Promise<SessionRecord | undefined> | undefined {
    return this.starting?.catch(() => undefined);
  }

  private async newSessionOnce(agentKey = this.deps.config.defaultAgent, show = true): Promise<SessionRecord> {
    const { sessions } = this.deps;
    const connection = await this.deps.agents.ensure(agentKey);
    const { cwd, additional } = this.deps.workspaceRoots();
    const { servers: mcpServers } = await this.deps.mcpServers.serversFor(connection);
    // Agents may send updates (available commands, modes) before the response names the session.
    const created = sessions.beginCreate();
    let response: acp.NewSessionResponse;
    let record: SessionRecord;
    try {
      response = await connection.newSession({
        cwd,
        mcpServers,
        ...additionalDirectoriesFor(connection, additional),
      });
      record = sessions.recordFor(response.sessionId, agentKey, connection, cwd, additional);
    } finally {
      created();
    }
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions);
    return show ? sessions.show(record) : record;
  }

  /**
   * Forks an open session (`session/fork`; `messageId`: cut after that message, the draft
   * RFD's inclusive cut) into a new session of the same agent. The record is not shown yet: the
   * caller fills in the conversation it inherits first.
   */
  async forkSession(sessionId: string, messageId: string | undefined): Promise<SessionRecord> {
    const { sessions } = this.deps;
    const source = sessions.session(sessionId);
    if (!source) throw new Error(`There is no open session ${sessionId}.`);
    const { connection } = source;
    if (!connection.process.isAlive) throw new Error(`${source.agentName} is not running.`);
    if (connection.forkSupport === 'none') throw new Error(`${source.agentName} does not fork sessions.`);
    const { cwd, additional } = this.deps.workspaceRoots();
    const { servers: mcpServers } = await this.deps.mcpServers.serversFor(connection);
    const created = sessions.beginCreate();
    let response: Awaited<ReturnType<AgentConnection['forkSession']>>;
    let record: SessionRecord;
    try {
      response = await connection.forkSession({
        sessionId: source.agentSessionId,
        cwd,
        mcpServers,
        ...additionalDirectoriesFor(connection, additional),
        ...(messageId !== undefined ? { messageId } : {}),
      });
      if (typeof response?.sessionId !== 'string' || response.sessionId === '') throw new Error('session/fork answered without a session id');
      record = sessions.recordFor(response.sessionId, source.agentKey, connection, cwd, additional);
    } finally {
      created();
    }
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions as acp.SessionConfigOption[]);
    return record;
  }

  /**
   * Opens a stored session (`session/load`) with an agent (by default the one it was with here,
   * see `agentOf`): the agent replays the conversation as updates, so its cards come back as
   * they were. An already open session just becomes active.
   */
  async loadSession(sessionId: string, agentKey?: string): Promise<SessionRecord> {
    const { sessions } = this.deps;
    const open = sessions.session(sessionId);
    if (open?.connection.process.isAlive && (agentKey === undefined || open.agentKey === agentKey)) return sessions.setActive(sessionId);
    const key = agentKey ?? this.agentOf(sessionId);
    // An open record names the agent's own id; a listed session (session/list) is the agent's id.
    const agentSessionId = open?.agentKey === key ? open.agentSessionId : sessionId;
    return this.deps.signIn.run(key, () => this.loadSessionOnce(agentSessionId, key));
  }

  /** `sessionId` is the agent's id of the session. */
  private async loadSessionOnce(sessionId: string, agentKey: string): Promise<SessionRecord> {
    const { sessions } = this.deps;
    const connection = await this.deps.agents.ensure(agentKey);
    const existing = sessions.session(sessions.clientIdOf(connection, sessionId));
    if (existing?.connection === connection) return sessions.show(existing);
    const resumed = await this.resumeOnce(sessionId, agentKey, connection);
    if (typeof resumed === 'object') return resumed;
    if (!connection.canLoadSession) {
      throw new Error(`Agent "${connection.name}" ${resumed === undefined ? '' : `refused to resume the session (${resumed}) and `}cannot load sessions.`);
    }
    const { cwd, additional } = this.deps.workspaceRoots();
    const { servers: mcpServers } = await this.deps.mcpServers.serversFor(connection);
    // The record exists before the replay arrives, so the replayed updates land in it.
    const record = sessions.recordFor(sessionId, agentKey, connection, cwd, additional);
    record.loading = true;
    // The replay (every update before the answer) is history: the views get it in one change
    // event once the agent answered, not a frame at a time while it streams in.
    const release = record.state.holdChanges();
    let response: acp.LoadSessionResponse;
    try {
      // The other folders as on session/new: without them a multi-root session reloads with one.
      response = await connection.loadSession({ sessionId, cwd, mcpServers, ...additionalDirectoriesFor(connection, additional) });
      await sessions.settled(record.state.sessionId);
      record.state.endTurn();
    } finally {
      // Delivered while `loading` still says it is history (diffs of old edits do not auto-open).
      release();
      // The subagents the replay announced are history too.
      for (const opened of sessions.subtreeOf(record.state.sessionId)) {
        opened.loading = false;
        if (opened !== record) opened.state.endTurn();
      }
    }
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions);
    record.state.flushNow();
    return sessions.show(record);
  }

  /**
   * Continues a session with `session/resume`, without the agent replaying it, when the agent
   * advertises it and this editor recorded the whole conversation (its journal): the chat shows
   * it from the journal. Otherwise the caller loads the session instead: undefined when the agent
   * does not resume or nothing whole is recorded, the agent's reason when it refused (logged).
   */
  private async resumeOnce(sessionId: string, agentKey: string, connection: AgentConnection): Promise<SessionRecord | string | undefined> {
    const { sessions, journals } = this.deps;
    if (!connection.canResumeSession || !journals) return undefined;
    // The editor's id: a dead predecessor's (a restart), else the one the agent's id maps to.
    const predecessor = sessions.all.find((r) => r.agentKey === agentKey && r.agentSessionId === sessionId && !r.connection.process.isAlive);
    const clientId = predecessor?.state.sessionId ?? sessions.clientIdOf(connection, sessionId);
    const journal = journals.read(clientId);
    if (!journal || journal.incomplete !== undefined || journal.entries.length === 0) {
      const why = !journal || journal.entries.length === 0 ? 'nothing of it is recorded here' : `its record is not whole (${journal.incomplete ?? ''})`;
      this.deps.log.info(`Session ${sessionId}: ${why}; loading it from agent "${connection.name}" (session/load) instead of resuming it.`);
      return undefined;
    }
    const { cwd, additional } = this.deps.workspaceRoots();
    const { servers: mcpServers } = await this.deps.mcpServers.serversFor(connection);
    journals.continueWith(clientId);
    const record = sessions.recordFor(sessionId, agentKey, connection, cwd, additional);
    record.loading = true;
    const release = record.state.holdChanges();
    let response: acp.ResumeSessionResponse;
    try {
      record.state.restore(journal.entries);
      record.state.endTurn();
      response = await connection.resumeSession({ sessionId, cwd, mcpServers, ...additionalDirectoriesFor(connection, additional) });
    } catch (error) {
      this.deps.log.warn(`Agent "${connection.name}" refused to resume session ${sessionId} (${errorMessage(error)}); loading it instead (session/load).`);
      release();
      sessions.close(record);
      return errorMessage(error);
    }
    // Delivered while `loading` still says it is history (diffs of old edits do not auto-open).
    release();
    for (const opened of sessions.subtreeOf(record.state.sessionId)) opened.loading = false;
    if (response.modes) record.state.setModes(response.modes);
    if (response.configOptions) record.state.setConfigOptions(response.configOptions);
    record.state.flushNow();
    this.deps.log.info(`Session ${sessionId} resumed with agent "${connection.name}" (session/resume); its conversation is shown from the record here.`);
    return sessions.show(record);
  }

  /**
   * Deletes a session: an open one is closed first (its turn cancelled), then the agent that
   * advertises `sessionCapabilities.delete` is told with `session/delete`. Our own records are
   * the caller's (Session History forgets it whatever the agent can do).
   */
  async deleteSession(sessionId: string): Promise<void> {
    const { sessions } = this.deps;
    const { agentKey: key, agentSessionId } = this.ownerOf(sessionId);
    if (sessions.session(sessionId)) await this.closeSession(sessionId);
    const connection = await this.deps.agents.connect(key);
    if (connection.initializeResponse.agentCapabilities?.sessionCapabilities?.delete == null) return;
    await connection.deleteSession({ sessionId: agentSessionId });
  }

  /** The agent of a session by its editor id (see `agentOf`), and that agent's id of it. */
  ownerOf(sessionId: string): { agentKey: string; agentSessionId: string } {
    const open = this.deps.sessions.session(sessionId);
    return { agentKey: this.agentOf(sessionId), agentSessionId: open?.agentSessionId ?? sessionId };
  }

  /**
   * The agent of a session by its editor id: the open session's; else the one it was with here
   * while that agent is still configured (another agent does not know its id); else the active
   * session's, else the default (a session the active agent listed, `session/list`).
   */
  private agentOf(sessionId: string): string {
    const { sessions } = this.deps;
    const open = sessions.session(sessionId);
    if (open) return open.agentKey;
    const recorded = this.deps.recordedAgentOf?.(sessionId);
    if (recorded !== undefined && this.deps.agents.knows(recorded)) return recorded;
    return sessions.active?.agentKey ?? this.deps.config.defaultAgent;
  }

  /**
   * An agent's stored sessions for this workspace (`session/list`; the active session's agent,
   * else the default); undefined when it cannot list them.
   */
  async listSessions(agentKey?: string): Promise<acp.SessionInfo[] | undefined> {
    const connection = await this.deps.agents.connect(agentKey);
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
    const session = this.deps.sessions.session(sessionId);
    if (!session) throw new Error('There is no such session.');
    await session.connection.setMode({ sessionId: session.agentSessionId, modeId });
    session.state.setModes({ currentModeId: modeId, availableModes: [...session.state.availableModes] });
    session.state.flushNow();
  }

  /**
   * Sets one of the session's config options (`session/set_config_option`): a select's value id
   * (the model…), or a boolean option's value, sent typed (`type: "boolean"`).
   */
  async setConfigOption(sessionId: string, configId: string, value: string | boolean): Promise<void> {
    const session = this.deps.sessions.session(sessionId);
    if (!session) throw new Error('There is no such session.');
    const option = session.state.configOptions.find((o) => o.id === configId);
    if (option && (option.type === 'boolean') !== (typeof value === 'boolean')) {
      throw new Error(`The option "${option.name}" takes ${option.type === 'boolean' ? 'on or off' : 'one of its values'}, not ${JSON.stringify(value)}.`);
    }
    const sessionRef = { sessionId: session.agentSessionId, configId };
    const response = await session.connection.setConfigOption(typeof value === 'boolean' ? { ...sessionRef, type: 'boolean', value } : { ...sessionRef, value });
    session.state.setConfigOptions(response.configOptions);
    session.state.flushNow();
  }
}

/** What `SessionVerbs` needs of the sessions' journals (`sessionJournals.ts`). */
export interface SessionJournalAccess {
  read(sessionId: string): ReadJournal | undefined;
  /** The next record of this session goes on with its journal rather than starting it again. */
  continueWith(sessionId: string): void;
}

/** `additionalDirectories` for `session/new`, `session/load` and `session/resume`, when the agent advertises it and there are any. */
function additionalDirectoriesFor(connection: AgentConnection, additional: readonly string[]): { additionalDirectories?: string[] } {
  const advertised = connection.initializeResponse.agentCapabilities?.sessionCapabilities?.additionalDirectories != null;
  return advertised && additional.length ? { additionalDirectories: [...additional] } : {};
}
