import type {
  AvailableCommand,
  ContentBlock,
  ContentChunk,
  Cost,
  PlanEntry,
  SessionConfigOption,
  SessionMode,
  SessionModeState,
  SessionNotification,
  SessionUpdate,
  ToolCall,
  ToolCallUpdate,
} from '@agentclientprotocol/sdk';
import { readTerminalMeta } from '../../../protocol/terminalMeta';
import { ChangeCoalescer, flushAfterFrame, type ChangeListener, type FlushScheduler, type PendingChanges } from './changes';
import type { SessionNotice } from './notices';
import { SessionEvents, type PlanOperation, type SessionEventsView } from './sessionEvents';
import { DisplayTerminalStore, type DisplayTerminalState } from './terminalStore';
import { ToolCallStore, type ToolCallApplied, type ToolCallState } from './toolCalls';
import { Transcript, type MessageRole, type TranscriptEntry } from './transcript';
import { WarningLog } from './warningLog';
import { parentToolUseIdOf, SubagentStore, type SubagentApplied, type SubagentOperation, type SubagentRecord } from './subagents';
import { jsonEqual } from './wireValues';
import type { JournalEntry } from './sessionJournal';

export type { SessionChanges } from './changes';

export interface SessionStateOptions {
  sessionId: string;
  cwd: string;
  additionalDirectories?: readonly string[];
  /** From the `session/new` (or `session/load`) response. */
  modes?: SessionModeState | null;
  configOptions?: readonly SessionConfigOption[] | null;
  /** When coalesced changes are delivered; default: one frame later (see `DEFAULT_FLUSH_DELAY_MS`). */
  schedule?: FlushScheduler;
  /** Output kept per display terminal, in string length. */
  displayOutputLimit?: number;
  /** Tolerated oddities (unknown ids or variants, malformed items), as they happen: log them. */
  onWarning?: (message: string) => void;
  /**
   * Each tool-call message once applied, synchronously, with the merged call and what changed;
   * also a message that changes nothing the call keeps (its `_meta` may say more). The action
   * log reads a file the moment a call first names it, before the agent's own write.
   */
  onToolCallApplied?: (applied: ToolCallApplied) => void;
  /**
   * A `subagent_update` was applied, synchronously: the sessions layer opens (or updates) the
   * child's own session before any of its traffic is routed.
   */
  onSubagent?: (applied: SubagentApplied) => void;
  /** Each update, prompt and turn end as it is applied, for the session's journal (not while `restore` replays one). */
  journal?: (entry: JournalEntry) => void;
}

export interface SessionUsage {
  /** Tokens in context. */
  readonly used: number;
  /** Context window size. */
  readonly size: number;
  /** Cumulative cost: the last one the agent sent (it is cumulative, so it stays until replaced). */
  readonly cost: Cost | undefined;
}

/**
 * The state of one ACP session, fed `session/update`s in arrival order (see `KeyedSerialQueue`).
 * `apply` never throws: a malformed or unknown update is skipped with a warning and the session
 * goes on. Renderers read the getters and listen to `onDidChange` (coalesced); they must not
 * mutate what the getters return.
 */
export class SessionState {
  readonly sessionId: string;
  readonly cwd: string;
  readonly additionalDirectories: readonly string[];

  private readonly calls = new ToolCallStore();
  private readonly displayTerminals: DisplayTerminalStore;
  private readonly conversation = new Transcript();
  private readonly changes: ChangeCoalescer;
  /** Named plans, compactions and notices. */
  private readonly events: SessionEvents;
  private readonly warningLog: WarningLog;
  private readonly onToolCallApplied: ((applied: ToolCallApplied) => void) | undefined;
  private readonly onSubagent: ((applied: SubagentApplied) => void) | undefined;
  private readonly journal: ((entry: JournalEntry) => void) | undefined;
  /** While `restore` replays a journal: what it applies is in the journal already. */
  private restoring = false;
  /** The children this session announced. */
  private readonly children = new SubagentStore();
  /** The last message another session sent this one (a child's copy of its prompt). */
  private incomingMessage: string | undefined;
  /** The parent's tool call this session's traffic names (`_meta.claudeCode.parentToolUseId`), if any. */
  private spawnedByValue: string | undefined;
  /** Moves with every update applied: a parent's view of this session is stale once it does. */
  private appliedCount = 0;

  private planEntries: readonly PlanEntry[] = [];
  private modeId: string | undefined;
  private modes: readonly SessionMode[] = [];
  private commands: readonly AvailableCommand[] = [];
  private options: readonly SessionConfigOption[] = [];
  private usageValue: SessionUsage | undefined;
  private titleValue: string | undefined;
  private updatedAtValue: string | undefined;

  constructor(options: SessionStateOptions) {
    this.sessionId = options.sessionId;
    this.cwd = options.cwd;
    this.additionalDirectories = options.additionalDirectories ?? [];
    this.displayTerminals = new DisplayTerminalStore({ outputLimit: options.displayOutputLimit });
    this.warningLog = new WarningLog(options.onWarning);
    this.onToolCallApplied = options.onToolCallApplied;
    this.onSubagent = options.onSubagent;
    this.journal = options.journal;
    this.changes = new ChangeCoalescer(options.schedule ?? flushAfterFrame, (error) =>
      this.warn(`a change listener threw: ${error instanceof Error ? error.message : String(error)}`),
    );
    this.events = new SessionEvents({ transcript: this.conversation, pending: () => this.pending(), warn: (m) => this.warn(m) });
    this.modeId = options.modes?.currentModeId;
    this.modes = options.modes?.availableModes ?? [];
    this.options = options.configOptions ?? [];
  }

  // ── Reading ────────────────────────────────────────────────────────────────

  /** In arrival order. */
  toolCalls(): readonly ToolCallState[] {
    return this.calls.all();
  }

  toolCall(id: string): ToolCallState | undefined {
    return this.calls.get(id);
  }

  /** A display terminal (`_meta` convention). Client terminals (`terminal/create`) live elsewhere. */
  terminal(id: string): DisplayTerminalState | undefined {
    return this.displayTerminals.get(id);
  }

  terminals(): DisplayTerminalState[] {
    return this.displayTerminals.all();
  }

  get plan(): readonly PlanEntry[] {
    return this.planEntries;
  }

  get currentModeId(): string | undefined {
    return this.modeId;
  }

  get availableModes(): readonly SessionMode[] {
    return this.modes;
  }

  get availableCommands(): readonly AvailableCommand[] {
    return this.commands;
  }

  get configOptions(): readonly SessionConfigOption[] {
    return this.options;
  }

  get usage(): SessionUsage | undefined {
    return this.usageValue;
  }

  get title(): string | undefined {
    return this.titleValue;
  }

  get updatedAt(): string | undefined {
    return this.updatedAtValue;
  }

  get transcript(): readonly TranscriptEntry[] {
    return this.conversation.entries;
  }

  /**
   * The turn the session is in: the index of its user message among the session's (0 before the
   * first). Checkpoints and the action log name turns so; kept as messages are recorded.
   */
  get turn(): number {
    return Math.max(0, this.conversation.userMessages - 1);
  }

  /** The latest notices (`notice` updates, and the messages agents send instead), oldest first. */
  get notices(): readonly SessionNotice[] {
    return this.events.notices;
  }

  /** The plans the agent named (`plan_update`), its compactions, the newest summary. */
  get sessionEvents(): SessionEventsView {
    return this.events;
  }

  /** The children this session announced (`subagent_update`), in the order they came. */
  get subagents(): readonly SubagentRecord[] {
    return this.children.all();
  }

  subagent(childId: string): SubagentRecord | undefined {
    return this.children.get(childId);
  }

  /** The message another session last sent this one (a subagent's prompt, as the child sees it). */
  get receivedMessage(): string | undefined {
    return this.incomingMessage;
  }

  /** The parent's tool call that spawned this session, as its own traffic says (Claude's `_meta`). */
  get spawnedBy(): string | undefined {
    return this.spawnedByValue;
  }

  /** How many updates were applied: moves whenever the session may have changed. */
  get revision(): number {
    return this.appliedCount;
  }

  /** The agent exited: the subagents it still ran stop (see `SubagentStore.agentExited`). Returns their ids. */
  subagentsStopped(): string[] {
    const stopped = this.children.agentExited();
    if (stopped.length > 0) this.subagentsChanged();
    return stopped.map((record) => record.childId);
  }

  /** An id collision kept this child from opening (see `SubagentRecord.collision`). */
  markSubagentCollision(childId: string, why: string): void {
    this.children.markCollision(childId, why);
    this.pending().subagents = true;
    this.pending().transcript = true;
    this.warn(`subagent ${childId}: ${why}`);
  }

  /** The latest warnings, oldest first (see `warningCount` for how many there were). */
  get warnings(): readonly string[] {
    return this.warningLog.latest;
  }

  get warningCount(): number {
    return this.warningLog.count;
  }

  // ── Changes ────────────────────────────────────────────────────────────────

  onDidChange(listener: ChangeListener): { dispose(): void } {
    return this.changes.onDidChange(listener);
  }

  /** Delivers pending changes now (e.g. when a prompt returns) instead of on the next flush. */
  flushNow(): void {
    this.changes.flushNow();
  }

  /**
   * Holds change events back (the state itself is updated as usual) until the returned release is
   * called, which delivers them as one event: a replayed conversation is rendered once.
   */
  holdChanges(): () => void {
    return this.changes.hold();
  }

  /** Stops change delivery; the state stays readable. */
  dispose(): void {
    this.changes.dispose();
  }

  // ── Writing ────────────────────────────────────────────────────────────────

  /** Applies one `session/update`. Synchronous; never throws. */
  apply(update: SessionUpdate | PlanOperation | SubagentOperation): void {
    if (!this.restoring) this.journal?.({ k: 'update', update: update as SessionUpdate });
    this.changes.countUpdate();
    this.appliedCount++;
    try {
      this.dispatch(update);
    } catch (error) {
      const variant = (update as { sessionUpdate?: unknown } | null)?.sessionUpdate;
      this.warn(`session/update "${String(variant)}" skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Applies a whole notification, checking that it is for this session. */
  applyNotification(notification: SessionNotification): void {
    if (notification.sessionId !== this.sessionId) {
      this.warn(`session/update for session "${notification.sessionId}" reached session "${this.sessionId}": skipped`);
      return;
    }
    this.apply(notification.update);
  }

  /** Records the prompt we sent as a user message (agents do not echo it during a turn). */
  recordPrompt(prompt: readonly ContentBlock[]): void {
    if (!this.restoring) this.journal?.({ k: 'prompt', prompt });
    this.conversation.startMessage('user', prompt);
    this.pending().transcript = true;
  }

  /** A turn ended, or a `session/load` replay: what is still in progress now will not finish in it. */
  endTurn(): void {
    if (!this.restoring) this.journal?.({ k: 'end' });
    this.events.endTurn();
    if (this.children.endTurn().length > 0) this.pending().subagents = true;
  }

  /** Shows a session's journal again, as it was fed (without journaling it twice). */
  restore(entries: readonly JournalEntry[]): void {
    this.restoring = true;
    try {
      for (const entry of entries) {
        if (entry.k === 'update') this.apply(entry.update);
        else if (entry.k === 'prompt') this.recordPrompt(entry.prompt);
        else if (entry.k === 'end') this.endTurn();
      }
    } finally {
      this.restoring = false;
    }
  }

  /** Modes from a later response (e.g. `session/load`). */
  setModes(modes: SessionModeState | null | undefined): void {
    this.modeId = modes?.currentModeId;
    this.modes = modes?.availableModes ?? [];
    this.pending().mode = true;
  }

  /** Options returned by `session/set_config_option`. */
  setConfigOptions(options: readonly SessionConfigOption[]): void {
    if (this.differs(this.options, options, 'configOptions')) this.options = options;
  }

  private dispatch(update: SessionUpdate | PlanOperation | SubagentOperation): void {
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        return this.appendChunk('user', update);
      case 'agent_message_chunk':
        return this.appendChunk('agent', update);
      case 'agent_thought_chunk':
        return this.appendChunk('thought', update);
      case 'tool_call':
        return this.applyToolCall(update, 'tool_call');
      case 'tool_call_update':
        return this.applyToolCall(update, 'tool_call_update');
      case 'plan': {
        // ACP: every plan update is the complete list; the client replaces the whole plan.
        const entries = asArray(update.entries, 'plan.entries');
        if (this.differs(this.planEntries, entries, 'plan')) this.planEntries = entries;
        return;
      }
      case 'available_commands_update': {
        const commands = asArray(update.availableCommands, 'availableCommands');
        if (this.differs(this.commands, commands, 'commands')) this.commands = commands;
        return;
      }
      case 'config_option_update':
        return this.setConfigOptions(asArray(update.configOptions, 'configOptions'));
      case 'current_mode_update':
        if (this.modeId !== update.currentModeId) {
          this.modeId = update.currentModeId;
          this.pending().mode = true;
        }
        return;
      case 'session_info_update':
        return this.applyInfo(update.title, update.updatedAt);
      case 'usage_update':
        return this.applyUsage({ used: update.used, size: update.size, cost: update.cost ?? this.usageValue?.cost });
      case 'plan_update':
      case 'plan_removed':
      case 'compaction_update':
      case 'compaction_summary_chunk':
      case 'notice':
        return this.events.apply(update);
      case 'subagent_update':
        return this.applySubagent(this.children.apply(update));
      case 'session_message':
        return this.applySessionMessage(update);
      case 'session_message_chunk':
        if (this.children.applyChunk(update)) this.subagentsChanged();
        return;
      default:
        return this.ignoreUnknownVariant(update);
    }
  }

  /**
   * The compile-time half of `assertNever` (a new variant in the SDK breaks the build here), without
   * its runtime throw: an agent newer than our SDK may send variants we do not know, and ACP says
   * to ignore such an update and keep the session.
   */
  private ignoreUnknownVariant(update: never): void {
    const variant = (update as { sessionUpdate?: unknown } | null)?.sessionUpdate;
    this.warn(`unknown session/update "${String(variant)}" ignored`);
  }

  private applySubagent(applied: SubagentApplied): void {
    if (applied.created) this.conversation.addEvent({ type: 'subagent', subagent: applied.record });
    this.subagentsChanged();
    if (this.onSubagent) {
      try {
        this.onSubagent(applied);
      } catch (error) {
        this.warn(`a subagent listener threw: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private applySessionMessage(message: SubagentOperation & { sessionUpdate: 'session_message' }): void {
    if (this.children.applyMessage(message)) return this.subagentsChanged();
    // Not about a child of this one: a message this session received (a child's copy of its prompt).
    if (!Array.isArray(message.content)) return;
    let text = '';
    for (const block of message.content) if (block?.type === 'text' && typeof block.text === 'string') text += block.text;
    if (text === this.incomingMessage) return;
    this.incomingMessage = text;
    this.pending().info = true;
  }

  private subagentsChanged(): void {
    const pending = this.pending();
    pending.subagents = true;
    pending.transcript = true;
  }

  private appendChunk(role: MessageRole, chunk: ContentChunk): void {
    const block: unknown = chunk.content;
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') {
      this.warn(`${role} message chunk without a content block ignored`);
      return;
    }
    // A notice an agent sent as its text (the client had not advertised notices) is no answer.
    if (role === 'agent' && chunk._meta && this.events.takeAgentChunk(chunk)) return;
    this.conversation.appendChunk(role, chunk.content, chunk.messageId);
    this.pending().transcript = true;
  }

  private applyToolCall(message: ToolCall | ToolCallUpdate, variant: 'tool_call' | 'tool_call_update'): void {
    const id: unknown = message.toolCallId;
    if (typeof id !== 'string' || !id) {
      this.warn(`${variant} without a toolCallId ignored`);
      return;
    }
    if (this.spawnedByValue === undefined && message._meta) this.spawnedByValue = parentToolUseIdOf(message._meta);
    // A tool call that stands for a compaction shows as the compaction.
    if (this.events.takeToolCall(message)) return;
    const result = variant === 'tool_call' ? this.calls.applyToolCall(message as ToolCall) : this.calls.applyUpdate(message);
    // Indexed: nearly always empty, and a for-of would allocate an iterator per message.
    for (let i = 0; i < result.warnings.length; i++) this.warn(result.warnings[i]);
    // A message that changes nothing (a repeat) must not schedule a flush.
    if (result.created || result.changed) {
      const pending = this.pending();
      if (result.created) {
        this.conversation.addToolCall(id);
        pending.newToolCalls.add(id);
        pending.transcript = true;
      }
      pending.toolCalls.add(id);
      if (result.contentReplaced) pending.contentReplaced.add(id);
    }
    const meta = readTerminalMeta(message._meta);
    if (meta.terminal_info || meta.terminal_output || meta.terminal_exit) this.displayTerminals.apply(meta, id, this.terminalChanged);
    if (this.onToolCallApplied) this.toolCallApplied(this.onToolCallApplied, result);
  }

  private toolCallApplied(listener: (applied: ToolCallApplied) => void, applied: ToolCallApplied): void {
    try {
      listener(applied);
    } catch (error) {
      this.warn(`a tool-call listener threw: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A display terminal changed through a message of `toolCallId`. Bound once: it runs per line of output. */
  private readonly terminalChanged = (terminalId: string, toolCallId: string): void => {
    const pending = this.pending();
    pending.terminals.add(terminalId);
    // Output may name a call before (or without) `terminal_info`: it is still a terminal card.
    if (this.calls.linkTerminal(toolCallId, terminalId)) pending.toolCalls.add(toolCallId);
  };

  private applyInfo(title: string | null | undefined, updatedAt: string | null | undefined): void {
    // Absent: unchanged; null: cleared.
    const nextTitle = title === undefined ? this.titleValue : (title ?? undefined);
    const nextUpdatedAt = updatedAt === undefined ? this.updatedAtValue : (updatedAt ?? undefined);
    if (nextTitle === this.titleValue && nextUpdatedAt === this.updatedAtValue) return;
    this.titleValue = nextTitle;
    this.updatedAtValue = nextUpdatedAt;
    this.pending().info = true;
  }

  private applyUsage(usage: SessionUsage): void {
    if (jsonEqual(usage, this.usageValue)) return;
    this.usageValue = usage;
    this.pending().usage = true;
  }

  /** Whether a whole-list replacement changes anything, flagging it if so (agents repeat themselves). */
  private differs(current: unknown, next: unknown, flag: 'plan' | 'commands' | 'configOptions'): boolean {
    if (jsonEqual(current, next)) return false;
    this.pending()[flag] = true;
    return true;
  }

  private pending(): PendingChanges {
    return this.changes.pending();
  }

  private warn(message: string): void {
    this.warningLog.add(message);
  }
}

function asArray<T>(value: readonly T[], what: string): readonly T[] {
  if (!Array.isArray(value)) throw new Error(`${what} is not an array`);
  return value;
}
