import type * as vscode from 'vscode';
import type { PermissionOptionKind, StopReason, ToolCallStatus, ToolKind } from '@agentclientprotocol/sdk';

/**
 * What `activate()` returns: a small API for tests and other extensions.
 *
 * ```ts
 * const api = await vscode.extensions.getExtension<AcpNativeApi>('acp-native.acp-native')!.activate();
 * const stop = await api.prompt('/read src/greet.ts');
 * const calls = api.toolCalls();
 * ```
 */
export interface AcpNativeApi {
  /**
   * Sends a prompt to the active session (or to the open session named), starting the default
   * agent and a session if needed. While a turn runs there it is queued, and resolves with its
   * own stop reason once it was sent and answered.
   */
  prompt(text: string, sessionId?: string): Promise<StopReason>;
  /**
   * Tells the running turn of the active (or named) session something, when its agent takes
   * steering (`_session/steering`): `injected` it went into the turn; `sent` no turn ran (or it
   * ended meanwhile), so it went as a prompt; `queued` the agent cannot be steered, or refused or
   * did not answer in time: it waits in the queue (with the reason).
   */
  steer(text: string, sessionId?: string): Promise<'injected' | 'queued' | 'sent'>;
  /** The prompts waiting in the active (or named) session's queue, in the order they go. */
  queue(sessionId?: string): { id: string; text: string; note?: string }[];
  /** Removes a queued prompt (its `prompt()` rejects). */
  removeQueued(id: string): void;
  /** Changes a queued prompt's text. */
  editQueued(id: string, text: string): void;
  /** Send now: steers with a queued prompt, or cancels the turn and sends it (agents without steering). */
  sendQueuedNow(id: string): Promise<'injected' | 'queued' | 'sent'>;
  /** Lets a waiting queue (after a cancel, a refusal, an error, a reload) go on. */
  resumeQueue(sessionId?: string): void;
  /** Why the queue waits, if it does. */
  queueWaiting(sessionId?: string): string | undefined;
  /** How many sessions wait for you (the ACP view container's badge): a turn ended or failed, or a question waits, off screen. */
  sessionsWaiting(): number;
  /** A session's messages (the active one by default), in order: the user's, the agent's, its thoughts. */
  conversation(sessionId?: string): { role: 'user' | 'agent' | 'thought'; text: string }[];
  /** Cancels the active session's (or the named session's) running turn, if any. */
  cancel(sessionId?: string): Promise<void>;
  /**
   * Starts a new session with the default agent (or the agent of that settings name: `bundled`,
   * an `acpNative.agents` entry, an agent added from the registry) and makes it active. Agents
   * already running keep running. Returns its id.
   */
  newSession(agentName?: string): Promise<string>;
  /** Stops every running agent, or the one of that settings name (its sessions' cards stay visible). */
  stopAgent(agentName?: string): Promise<void>;
  /** The open sessions, of every agent, in the order they were opened. */
  sessions(): OpenSessionInfo[];
  /** Makes an open session the one the chat shows (the chat header's switcher). */
  setActiveSession(sessionId: string): void;
  /** Closes an open session (its running turn is cancelled first); its agent keeps running. */
  closeSession(sessionId: string): Promise<void>;
  /** The settings names of the agents running now. */
  runningAgents(): string[];
  /** Restarts the agent (throttled: a crashing agent is not respawned in a loop) with a new session. */
  restartAgent(): Promise<string>;
  /** The agent's questions waiting for an answer. */
  pendingPermissions(): PendingPermission[];
  /**
   * Answers a question with its option of this kind: the one of `optionId` when given (options may
   * share a kind), else the first. False when it was already answered.
   * `keepHunks` (0-based, with an allow kind) keeps only those hunks of the proposed edit
   * (`hunks` of its `pendingPermissions()` entry); `reason` (with a reject kind) is told the agent.
   * Throws, answering nothing, for hunks or an option the question does not have.
   */
  answerPermission(questionId: number, kind: PermissionOptionKind, options?: { optionId?: string; keepHunks?: number[]; reason?: string }): boolean;
  /** The edits answered in part (and rejections with a reason), oldest first: what was kept, reverted, and how the agent was told. */
  partialApprovals(): PartialApprovalInfo[];
  /** Fires when a question is asked or answered. */
  readonly onDidChangePermissions: vscode.Event<void>;
  /** The agent's open forms (`elicitation/create`), URL forms also while they wait for the agent to complete them. */
  openForms(): OpenFormInfo[];
  /** Answers a form as its buttons do (a URL form's accept opens the browser). False when it is not open. */
  answerForm(id: number, action: 'accept' | 'decline' | 'cancel', answers?: Record<string, string | boolean>): boolean;
  /**
   * The action log of the active session: every file the agent changed, turn by turn, however it
   * changed it (`fs` write, its own edit reported as a tool call, or a command seen by the watcher).
   */
  changes(): LoggedChange[];
  /** Undoes one subagent's changes alone (its own subagents' too). Returns how many files it put back. */
  undoSubagentChanges(sessionId: string): Promise<number>;
  /** The copies of files larger than 2 MB the action log keeps in the workspace storage (their names). */
  largeCopies(): string[];
  /** Keeps one hunk of the latest change of a file. False when it is not pending. */
  keepHunk(path: string, index: number): boolean;
  /** Undoes one hunk of the latest change of a file, unless the user changed its lines since. */
  undoHunk(path: string, index: number): Promise<HunkUndoResult>;
  /**
   * Re-applies one undone hunk of the latest change of a file (a hunk undone in Review, or reverted
   * by a partial approval) as the agent wrote it, and keeps it; unless the user changed the lines
   * its undo put back.
   */
  reapplyHunk(path: string, index: number): Promise<HunkReapplyResult>;
  /** Undoes every agent change of that turn (index of its user message) and later ones, newest first. */
  restoreCheckpoint(turn: number): Promise<CheckpointRestore>;
  /**
   * The active session's workspace checkpoints, one per prompt that has one (taken before the
   * prompt was sent): its turn, and how many files the turns since changed in the action log.
   */
  checkpoints(): { turn: number; files: number }[];
  /**
   * Edit & resend without asking: the active session's workspace goes back to before prompt
   * `turn` (as `restoreCheckpoint`), then `text` goes on from there in a new branch the chat
   * shows (`session/fork` at the agent's message before it when the agent forks at a message,
   * else a new session whose first prompt carries the conversation before it). A running turn
   * is cancelled first. Resolves with the new session's id once its first turn ended.
   */
  resendFrom(turn: number, text: string): Promise<string>;
  /** Takes back the last checkpoint restore. Returns the files it put back. */
  undoRestore(): Promise<string[]>;
  /** The active session's id, if there is one. */
  readonly activeSessionId: string | undefined;
  /** The tool calls of a session (the active one by default; a subagent's too), as rendered, in order. */
  toolCalls(sessionId?: string): RenderedToolCall[];
  /** A session's node of the Tool Calls tree (the active one by default), rendered with its children. */
  sessionTree(sessionId?: string): RenderedTreeItem | undefined;
  /** Fires (coalesced) when the active session's tool calls change. */
  readonly onDidChangeToolCalls: vscode.Event<void>;
  /** Counters for benchmarks and diagnostics. */
  stats(): AcpNativeStats;
  /** Earlier sessions: the agent's `session/list` when it offers one, else those recorded in this workspace. */
  sessionHistory(): Promise<{ sessionId: string; title: string | undefined }[]>;
  /** Opens an earlier session (`session/load`) with its conversation and cards, and makes it active. */
  loadSession(sessionId: string): Promise<void>;
  /** A session (the active one by default; one not open is loaded first) as Markdown, as **ACP: Export Session as Markdown** shows it. */
  exportSession(sessionId?: string): Promise<string>;
  /** Deletes a session: closed first if open, `session/delete` when the agent advertises it, and gone from Session History's records. */
  deleteSession(sessionId: string): Promise<void>;
  /** Messages the Chat view posted to its webview, by type (deltas, not the whole transcript). */
  chatMessagesPosted(): { reset: number; patch: number; status: number; progress: number };
  /** The ACP Registry's agents (`acpNative.registry.url`, cached; the shipped snapshot offline), with the distributions usable here. */
  registryAgents(): Promise<{ id: string; name: string; version: string; distributions: string[] }[]>;
  /** Adds a registry agent (downloading a binary if needed) without starting it. Returns its name as Choose Agent lists it. */
  addRegistryAgent(id: string): Promise<string>;
  /** Removes an agent added from the registry: its sessions close, its process stops, its files are deleted. */
  removeRegistryAgent(id: string): Promise<void>;
  /** Makes the named agent (bundled, from acpNative.agents or added from the registry) the default and starts a session with it. */
  useAgent(name: string): Promise<void>;
  /** The running agent's sign-in methods, as it sent them (empty when no agent runs). */
  authMethods(): AuthMethodInfo[];
  /**
   * Signs in to the agent of the active session, else the default agent (started if needed), with one of its methods, as **ACP: Sign In**
   * does, with the secrets given instead of asked for: `{VAR: value}` for an `env_var` method,
   * `{"api-key": KEY}` for an API-key method, `{baseUrl, headers}` (headers a JSON object
   * string) for a gateway. A terminal method still opens its terminal and waits for it.
   */
  signIn(methodId: string, secret?: Record<string, string>): Promise<void>;
  /** The plans the agent named (`plan_update`) in a session (the active one by default), as last sent. */
  plans(sessionId?: string): PlanInfo[];
  /** How full a session's context window is (`usage_update`), if the agent said. */
  contextUsage(sessionId?: string): ContextUsageInfo | undefined;
  /** A session's context compactions, in order. */
  compactions(sessionId?: string): CompactionInfo[];
  /** A session's latest notices (`notice`, and the messages agents send instead), oldest first. */
  notices(sessionId?: string): NoticeInfo[];
}

export interface PlanInfo {
  planId: string;
  type: 'markdown' | 'file' | 'items';
  /** A markdown plan's text, whole. */
  content?: string;
  /** The plan's file: a file plan's, or the one a markdown plan names. */
  path?: string;
  /** An items plan's entries. */
  entries?: { content: string; status: 'pending' | 'in_progress' | 'completed'; priority: 'high' | 'medium' | 'low' }[];
}

export interface ContextUsageInfo {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

export interface CompactionInfo {
  id: string;
  /** `in_progress`, `completed`, `failed`, `cancelled` (or a newer status). */
  status: string;
  summary?: string;
  error?: string;
  /** Its turn ended with it in progress, and no news of it came since. */
  unfinished?: true;
}

export interface NoticeInfo {
  severity: string;
  title: string;
  description?: string;
}

export interface OpenSessionInfo {
  sessionId: string;
  /** The agent's settings name (`bundled`, an `acpNative.agents` name…). */
  agent: string;
  /** How the agent names itself (its launch name). */
  agentName: string;
  /** The agent's title, else the first prompt, else "New session". */
  title: string;
  busy: boolean;
  active: boolean;
  /** Idle, working, or waiting for an answer (a permission or a form). */
  activity: 'idle' | 'working' | 'waiting';
  /** The agent process of this session is running. */
  agentRunning: boolean;
  /** A subagent's session: the session that announced it. */
  parentSessionId?: string;
  /** A subagent's session: the parent's tool call that spawned it, when known. */
  parentToolCallId?: string;
  /** A subagent's session: what its parent says of it. */
  subagent?: { state: string; activity: string; background: boolean; cancellable: boolean; report?: string };
}

export interface AuthMethodInfo {
  id: string;
  name: string;
  type: 'terminal' | 'env_var' | 'agent';
}

export interface AcpNativeStats {
  /** How many times the Tool Calls tree was refreshed since activation. */
  treeRefreshes: number;
  /** Tool Calls tree items handed to VS Code since activation, and how many had to be built (not cached). */
  treeItems: { served: number; built: number };
  /**
   * The hunk lenses since activation: coalesced action-log changes looked at, and how many told the
   * window to ask an editor's lenses again (only when an editor on screen can show different ones).
   */
  hunkLenses: { checks: number; refreshes: number };
  /** How many `session/update`s the active session has applied. */
  updatesApplied: number;
  /** How many coalesced change events the active session has emitted. */
  changeEvents: number;
  /** Whether the Tool Calls view is on screen. */
  toolCallsViewVisible: boolean;
  /**
   * What renderers keep per card or session: clearing the sessions takes it all away.
   * `diffBeforeChars`: characters of diffs' "before" sides kept besides VS Code's documents of them.
   */
  kept: { diffCards: number; terminalSessions: number; followAlongSessions: number; diffBeforeChars: number };
  /** Every session the extension holds a record of (an update never creates one). */
  sessionIds: string[];
  /** The active session's slash commands (`available_commands_update`), by name. */
  availableCommands: string[];
  /**
   * Startup, in `performance.now()` of the extension host: when dist/extension.js began evaluating,
   * when `activate()` began, and how long `activate()` took (ms).
   */
  activation: { moduleEvaluationStartedAt: number; startedAt: number; ms: number };
  /**
   * The window's lag (`acpNative.performance.adaptToWindowLag`): the cadence's level now, how often
   * it changed and how long it was off normal (ms); the last listing of a session's calls the Tool
   * Calls view asked for, and the last chat patch the webview acknowledged as drawn (the list length
   * it brought). Times are `performance.now()` of the extension host.
   */
  window: {
    level: 'normal' | 'behind' | 'farBehind';
    levelChanges: number;
    behindMs: number;
    tree?: { sessionId: string; calls: number; at: number };
    chat?: { length: number; at: number };
    chatPosted?: number;
    /** When the webview last acknowledged every patch posted. */
    chatDrawnAt?: number;
    /** What the Tool Calls view says beside its title while the window catches up ("4,812 calls, showing the newest"). */
    progress?: string;
  };
}

export interface PendingPermission {
  id: number;
  sessionId: string;
  toolCallId: string;
  /** The tool call's title as displayed. */
  title: string;
  kind: ToolKind | undefined;
  /** The agent's options; several may share a kind (Claude's plan approval has three `allow_always`). */
  options: { optionId: string; name: string; kind: PermissionOptionKind }[];
  /** The hunks of the proposed edit, when the call has a diff that can be answered in part. */
  hunks?: number;
}

export interface PartialApprovalInfo {
  sessionId: string;
  toolCallId: string;
  path: string;
  /** Hunks of the proposal; kept and reverted are 0-based indexes. */
  total: number;
  kept: number[];
  reverted: number[];
  /** `waiting` for the agent's write; `applied`: the file holds just the kept hunks; `not-reverted` (see `note`); `rejected` with a reason. */
  status: 'waiting' | 'applied' | 'not-reverted' | 'rejected';
  /** What the card says. */
  note: string;
  /** How the agent was told, once it was. */
  told?: string;
}


export interface LoggedChange {
  /** The session that made the change: the session itself, or one of its subagents' sessions. */
  sessionId: string;
  /** Index of the turn's user message in the session. */
  turn: number;
  path: string;
  /** How many hunks the agent's change has. */
  hunks: number;
  /** Each hunk's state (Keep, Undo, or a partial approval at the question). */
  hunkStates: ('pending' | 'kept' | 'undone')[];
  status: 'pending' | 'kept' | 'undone' | 'partial' | 'no-undo';
  source: 'fs' | 'tool' | 'watcher';
  /** Why it cannot be undone ("no undo: …"). */
  reason?: string;
  /** Pending hunks whose lines were changed since the agent's edit. */
  conflicts: number;
  created: boolean;
  deleted: boolean;
  added: number;
  removed: number;
  /** Larger than 2 MB: kept or undone as a whole file (one "hunk"), from a copy in the storage. */
  wholeFile: boolean;
  /** A whole-file change whose copy before or hash after is still being taken (off the event loop). */
  checking: boolean;
}

export interface HunkUndoResult {
  undone: number[];
  /** Hunks left alone: their lines changed after the agent's edit. */
  conflicts: number[];
  refused?: string;
}

export interface HunkReapplyResult {
  reapplied: number[];
  /** Hunks left alone: the lines their undo put back changed since. */
  conflicts: number[];
  refused?: string;
}

export interface CheckpointRestore {
  files: string[];
  conflicts: { path: string; hunks: number[] }[];
  refused: { path: string; reason: string }[];
}

export type RenderedCard = 'diff' | 'terminal' | 'generic';

export interface RenderedToolCall {
  id: string;
  /** The title as displayed: paths relative to the workspace. */
  title: string;
  /** The title as the agent sent it. */
  agentTitle: string;
  kind: ToolKind | undefined;
  status: ToolCallStatus;
  card: RenderedCard;
  /** The agent's raw output for the call, if it sent one. */
  rawOutput?: unknown;
  /** URIs of the editors this card opened (diff sides), as strings. */
  uris: string[];
  /** For terminal cards: the terminal panel and what it shows (`output`: read when accessed, what the panel was given by then). */
  terminal?: { id: string; name: string; output: string; exit?: { exitCode: number | null; signal: string | null } };
  /** The card's node in the Tool Calls tree. */
  tree: RenderedTreeItem;
}

export interface RenderedTreeItem {
  label: string;
  description?: string;
  icon?: string;
  command?: { command: string; arguments: unknown[] };
  /** What the view's menus match (`viewItem` in a `when` clause). */
  contextValue?: string;
  children: RenderedTreeItem[];
}

/** An open form of the agent's. `waiting`: a URL form that was accepted, until the agent completes it. */
export interface OpenFormInfo {
  id: number;
  sessionId: string | undefined;
  mode: 'form' | 'url';
  state: 'asking' | 'waiting';
  message: string;
  url?: string;
}
