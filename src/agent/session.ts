/**
 * One ACP session: its log, mode, background tasks and the turn in progress. Every event goes to
 * the log first, then out as updates through the same projector replay uses.
 */
import * as path from 'node:path';
import { readFileSync } from 'node:fs';
import type { ContentBlock, McpServer, RequestPermissionRequest, RequestPermissionResponse, SessionUpdate, StopReason } from '@agentclientprotocol/sdk';
import type { BridgeContext } from './bridge';
import type { Brain } from './brains/types';
import type { FileStore } from './files/store';
import { log } from './log';
import { McpHub } from './mcp/hub';
import { type ModeId, isModeId, modeAllows } from './permissions';
import { Projector, type ProjectOptions } from './projector';
import type { SessionEvent } from './sessionEvents';
import { parseLog, SessionLog } from './sessionLog';
import { TaskRegistry } from './tasks';
import type { PermissionClass } from './tools/types';
import { Turn, type TurnHost } from './turn';
import { UpdateSink, type SendUpdate } from './updateSink';

export interface SessionDeps {
  stateDir: string;
  brain: Brain;
  /** The client opted in to display terminals. */
  terminalOutput: boolean;
  defaultMode: ModeId;
  /** Where this session's tools read and write files (the client's fs/* or the local disk). */
  fileStore(sessionId: string): FileStore;
  sendUpdate(sessionId: string): SendUpdate;
  requestPermission(request: RequestPermissionRequest): Promise<RequestPermissionResponse>;
  /** The agent's version, told to MCP servers. */
  agentVersion?: string;
}

export class AgentSession implements TurnHost {
  readonly bridge: BridgeContext;
  readonly tasks: TaskRegistry;
  readonly files: FileStore;
  private additionalDirectories: readonly string[] = [];
  private readonly sink: UpdateSink;
  private readonly projector: Projector;
  private readonly grants = new Map<PermissionClass, 'allow' | 'reject'>();
  private turnCount = 0;
  private active: { turn: Turn; abort: AbortController } | undefined;
  private commandsAnnounced = false;
  private mcpHub: McpHub;

  private constructor(
    private readonly deps: SessionDeps,
    readonly sessionId: string,
    cwd: string,
    private readonly sessionLog: SessionLog,
    private readonly events: SessionEvent[],
    private mode: ModeId,
  ) {
    this.bridge = { cwd, terminalOutput: deps.terminalOutput };
    this.sink = new UpdateSink(deps.sendUpdate(sessionId));
    this.projector = new Projector(this.bridge);
    this.tasks = new TaskRegistry(countBackgroundCalls(events) + 1);
    this.files = deps.fileStore(sessionId);
    this.mcpHub = this.newHub([]);
  }

  /** cwd first, then the additional directories the client named (`session/new`, `load`, `resume`). */
  get roots(): readonly string[] {
    return [this.bridge.cwd, ...this.additionalDirectories];
  }

  /** The client (re)named the session's other folders; absolute paths only, as ACP requires. */
  setAdditionalDirectories(directories: readonly string[] | null | undefined): void {
    this.additionalDirectories = (directories ?? []).filter((d) => typeof d === 'string' && path.isAbsolute(d));
  }

  static create(deps: SessionDeps, sessionId: string, cwd: string): AgentSession {
    const sessionLog = SessionLog.create(deps.stateDir, sessionId, cwd);
    return new AgentSession(deps, sessionId, cwd, sessionLog, [], deps.defaultMode);
  }

  /**
   * Reopens a logged session and returns the updates that replay it (not yet sent). Undefined when
   * there is no such session.
   */
  static open(deps: SessionDeps, sessionId: string, cwd: string): { session: AgentSession; replay: SessionUpdate[] } | undefined {
    const opened = SessionLog.open(deps.stateDir, sessionId);
    if (opened === undefined) return undefined;
    const { events } = opened.loaded;
    const mode = lastMode(events) ?? deps.defaultMode;
    const session = new AgentSession(deps, sessionId, cwd, opened.log, events, mode);
    return { session, replay: replayEvents(session.projector, events) };
  }

  /**
   * The updates that replay this (idle, in-memory) session, read from its log file again; its
   * background tasks keep running.
   */
  replay(): SessionUpdate[] {
    const { events } = parseLog(readFileSync(this.sessionLog.file, 'utf8'), this.sessionLog.file);
    return replayEvents(new Projector(this.bridge), events);
  }

  /** The session's MCP servers, as the client last sent them (`session/new`, `load`, `resume`). */
  get mcp(): McpHub {
    return this.mcpHub;
  }

  /** Takes the client's MCP server list; a changed list stops the old servers (next use starts the new). */
  useMcpServers(servers: readonly McpServer[]): void {
    const next = this.newHub(servers);
    if (next.signature === this.mcpHub.signature) return;
    const previous = this.mcpHub;
    this.mcpHub = next;
    if (servers.length > 0) log.info(`session ${this.sessionId}: MCP servers ${servers.map((s) => s.name).join(', ')}`);
    void previous.close();
  }

  get modeId(): ModeId {
    return this.mode;
  }

  get busy(): boolean {
    return this.active !== undefined;
  }

  setMode(mode: ModeId): void {
    this.mode = mode;
    this.record({ type: 'mode', modeId: mode }, false);
  }

  /** Sends updates (a replay, say) in order; resolves once written. */
  async sendAll(updates: SessionUpdate[]): Promise<void> {
    for (const update of updates) this.sink.send(update);
    await this.sink.flush();
  }

  async prompt(content: ContentBlock[]): Promise<StopReason> {
    const abort = new AbortController();
    const history = [...this.events];
    const turn = new Turn(this, ++this.turnCount, abort.signal, history);
    this.active = { turn, abort };
    try {
      this.announceCommands();
      // The client shows its own prompt: logged for replay, not echoed.
      this.record({ type: 'user_message', content }, false);
      let stopReason: StopReason;
      try {
        stopReason = await turn.run(this.deps.brain, content);
      } catch (error) {
        log.error('the turn failed', error);
        turn.say(`\n\nThe agent failed: ${error instanceof Error ? error.message : String(error)}`);
        stopReason = 'end_turn';
      }
      turn.commit();
      if (abort.signal.aborted) stopReason = 'cancelled';
      await this.sink.flush();
      return stopReason;
    } finally {
      this.active = undefined;
    }
  }

  /** `session/cancel`: stops the turn; its processes (foreground and background) are killed. */
  cancel(): void {
    const active = this.active;
    if (active === undefined) return;
    active.abort.abort();
    void this.tasks.killStartedIn(active.turn.number);
  }

  async close(): Promise<void> {
    this.cancel();
    await this.tasks.killAll();
    await this.mcpHub.close();
    await this.sink.flush();
    this.sessionLog.close();
  }

  // ---- TurnHost ----

  record(event: SessionEvent, emit: ProjectOptions | false): void {
    this.sessionLog.append(event);
    this.events.push(event);
    const updates = this.projector.project(event, emit === false ? undefined : emit);
    if (emit !== false) for (const update of updates) this.sink.send(update);
  }

  send(update: SessionUpdate): void {
    this.sink.send(update);
  }

  standingDecision(needed: PermissionClass): 'allow' | 'reject' | 'ask' {
    if (modeAllows(this.mode, needed)) return 'allow';
    return this.grants.get(needed) ?? 'ask';
  }

  remember(needed: PermissionClass, decision: 'allow' | 'reject'): void {
    this.grants.set(needed, decision);
  }

  async requestPermission(request: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    // The call's card must reach the client before the question about it.
    await this.sink.flush();
    return this.deps.requestPermission(request);
  }

  updatePlan(entries: Extract<SessionEvent, { type: 'plan' }>['entries']): void {
    this.record({ type: 'plan', entries }, { outputStreamed: false });
  }

  private announceCommands(): void {
    const commands = this.deps.brain.availableCommands;
    if (this.commandsAnnounced || commands === undefined) return;
    this.commandsAnnounced = true;
    this.send({ sessionUpdate: 'available_commands_update', availableCommands: commands });
  }

  private newHub(servers: readonly McpServer[]): McpHub {
    return new McpHub(servers, { cwd: this.bridge.cwd, clientVersion: this.deps.agentVersion ?? '0' });
  }
}

function replayEvents(projector: Projector, events: SessionEvent[]): SessionUpdate[] {
  const updates = events.flatMap((event) => projector.project(event));
  updates.push(...projector.finishInterrupted());
  return updates;
}

function lastMode(events: SessionEvent[]): ModeId | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (event?.type === 'mode' && isModeId(event.modeId)) return event.modeId;
  }
  return undefined;
}

/** Background task ids continue across reloads, so `bg-1` in the history never means two tasks. */
function countBackgroundCalls(events: SessionEvent[]): number {
  return events.filter((e) => e.type === 'tool_call' && e.tool === 'bash' && isBackground(e.args)).length;
}

function isBackground(args: unknown): boolean {
  return typeof args === 'object' && args !== null && (args as { run_in_background?: unknown }).run_in_background === true;
}
