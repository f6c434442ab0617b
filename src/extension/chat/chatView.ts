import * as vscode from 'vscode';
import { CHAT_PROTOCOL_VERSION, onlyText, packChanges, packItem, type ChatElicitation, type ChatStatus, type WebviewRequest } from '../../protocol/chat';
import { ChatTranscript, changeBytes, turnsRefreshWait, type PatchOptions } from './model/chatViewModel';
import { chatStatus } from './model/chatStatus';
import { switcherEntries, type OpenSession } from '../session/model/openSessions';
import { openSessionsOf } from './sessionList';
import type { AgentSessions, SessionRecord } from '../session/agentSessions';
import { PermissionService } from '../permissions/permissionService';
import type { PermissionQuestion } from '../permissions/model/permissionRequests';
import type { ElicitationService } from '../forms/elicitationService';
import { errorMessage, type Logger } from '../base/log';
import { Disposable } from '../base/lifecycle';
import type { Probes } from '../base/probes';
import { callDisplayTitle, fileDisplayPath } from '../workspace/titles';
import type { ChatActions } from './chatActions';
import type { ChatPanel } from './chatPanel';
import type { PromptQueues } from '../queue/promptQueues';
import { subagentName } from '../session/model/subagents';
import type { WindowPacing } from '../pacing/windowPacing';
import { catchingUpText } from '../pacing/model/lagController';

/**
 * Changes are gathered this long and sent as one message (a frame at 60 Hz); longer while the
 * window is behind (the cadence of `pacing/`).
 */
const FLUSH_DELAY_MS = 16;
/** While the window is behind, the count of calls ("4,812 calls, showing the newest") is posted this often (when it moved). */
const PROGRESS_EVERY_MS = 250;
/**
 * A flush builds rows for this long at most; the rest goes in the next message, on a later
 * event-loop turn (a storm of tool calls adds hundreds of rows between two flushes: building and
 * posting them at once blocked the extension host 10–30 ms at a time).
 */
const FLUSH_BUDGET_MS = 3;
/**
 * A message carries about this many bytes of changes at most (estimated from the text it holds);
 * the rest goes in the next one. After a `session/load` a patch or a reset built in 3 ms was up to
 * 100 KB: VS Code serialising it and code-server compressing it blocked the host 20–40 ms more.
 */
const POST_BUDGET_BYTES = 24 * 1024;

/** Stops a patch or reset once it took FLUSH_BUDGET_MS to build or holds POST_BUDGET_BYTES. */
function postBudget(): PatchOptions {
  const started = performance.now();
  let bytes = 0;
  let looked = 0;
  // The clock is read every 8th item (a row builds in microseconds; reading it per row was a visible share of a flush).
  return { stop: (built) => (bytes += changeBytes(built)) >= POST_BUDGET_BYTES || (++looked % 8 === 0 && performance.now() - started > FLUSH_BUDGET_MS) };
}

/**
 * The Chat view's host side: a thin adapter. It shows the active session (else the newest),
 * sends the webview (through `ChatPanel`) a `reset` when that session changes or the page is
 * ready again, then coalesced `patch` (transcript deltas) and `status` messages; what the
 * webview posts goes to `ChatActions`.
 */
export class ChatView extends Disposable {
  private transcript: ChatTranscript | undefined;
  private shown: SessionRecord | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly pendingToolCalls = new Set<string>();
  private pendingStatus = false;
  private pendingTranscript = false;
  private pendingTurns = false;
  /**
   * The action log's turn summaries, read once per flush or reset (every user message asks) and
   * dropped after it: they change with the log.
   */
  private turnChanges: ((turn: number) => string | undefined) | undefined;
  /** JSON of the status last posted: a status like it is not posted again (streamed text changes none). */
  private postedStatus: string | undefined;
  /**
   * The last reset or patch posted was cut (`more`): the webview waits for the rest, so the next
   * patch is posted even when it holds no change (it is the one without `more`).
   */
  private resetComing = false;
  /** When the turn summaries were last refreshed (see `turnsRefreshWait`), and the wait for the next. */
  private turnsRefreshed = -Infinity;
  private turnsTimer: NodeJS.Timeout | undefined;
  /** Patches posted and not yet acknowledged: their numbers and the list length each brought. */
  private readonly unacknowledged: { seq: number; length: number }[] = [];
  private progressTimer: NodeJS.Timeout | undefined;
  /** The progress line last posted (null: none shown). */
  private postedProgress: string | null = null;

  constructor(
    private readonly deps: {
      panel: ChatPanel;
      sessions: AgentSessions;
      queues: PromptQueues;
      /** Messages posted, by type: tests and the benchmark read them. */
      probes?: Probes | undefined;
      /** The window's lag: how far apart patches go, and the webview's acknowledgements. */
      pacing?: WindowPacing | undefined;
      permissions: PermissionService;
      /** How many hunks a question's edit offers (partial approval). */
      hunks?: { hunkCount(question: PermissionQuestion): number | undefined };
      elicitations: ElicitationService;
      actions: ChatActions;
      log: Logger;
      /**
       * What the action log says of each turn of a session (see `ChatViewDeps.turnChanges`), read
       * in one pass and asked turn by turn, and when it changes.
       */
      turns?: { turnChanges(sessionId: string): (turn: number) => string | undefined; onDidChange: vscode.Event<string> };
    },
  ) {
    super();
    this._register(deps.panel.onDidBecomeReady(() => this.sendReset()));
    this._register(deps.panel.onDidAcknowledge((seq) => this.acknowledged(seq)));
    if (deps.pacing) this._register(deps.pacing.onDidChange(() => this.cadenceChanged()));
    this._register(deps.panel.onDidReceiveMessage((message) => this.receive(message)));
    this._register(
      deps.sessions.onDidChangeSessions(() => {
        this.schedule({ status: true });
        // The shown turn ended: what it left waiting on a slower cadence goes now, not up to 750 ms later.
        if (this.shown && !this.shown.busy && this.timer && (this.deps.pacing?.behind ?? false)) {
          clearTimeout(this.timer);
          this.timer = setTimeout(() => this.flush(), FLUSH_DELAY_MS);
        }
      }),
    );
    this._register(
      deps.sessions.onDidChangeSession(({ session, changes }) => {
        // Another session's title or first prompt shows in the switcher.
        if (session !== this.shown) {
          // A subagent of the shown session: its block in the parent's conversation changed.
          if (session.parent && this.shown && deps.sessions.rootOf(session.state.sessionId) === this.shown.state.sessionId) {
            this.schedule({ transcript: true, status: true });
            return;
          }
          if (changes.info || changes.transcript) this.schedule({ status: true });
          return;
        }
        this.schedule({ toolCalls: changes.toolCalls, transcript: changes.transcript, status: true });
      }),
    );
    this._register(deps.permissions.requests.onDidChange(() => this.schedule({ status: true })));
    this._register(deps.actions.onDidChangeAttachments(() => this.schedule({ status: true })));
    if (deps.turns) {
      this._register(
        deps.turns.onDidChange((sessionId) => {
          if (sessionId === this.shown?.state.sessionId) this.schedule({ turns: true });
        }),
      );
    }
    this._register(deps.elicitations.onDidChange(() => this.schedule({ status: true })));
    this._register(
      deps.queues.onDidChange((sessionId) => {
        if (sessionId === this.shown?.state.sessionId) this.schedule({ status: true });
      }),
    );
    this._register({ dispose: () => (clearTimeout(this.timer), clearTimeout(this.turnsTimer), clearInterval(this.progressTimer)) });
  }

  /** The session the view shows: the active one, else the newest. */
  currentSession(): SessionRecord | undefined {
    return this.deps.sessions.active ?? this.deps.sessions.topLevel.at(-1);
  }

  private receive(message: WebviewRequest): void {
    void this.deps.actions.handle(message, this.currentSession()).catch((error: unknown) => {
      this.deps.log.error(`Chat view: ${message.type} failed: ${errorMessage(error)}`);
      void vscode.window.showErrorMessage(`ACP: ${errorMessage(error)}`);
    });
  }

  /** How long changes are gathered now: a frame, or longer while the window is behind. */
  private get flushDelay(): number {
    return this.deps.pacing?.cadence.chatFlushMs ?? FLUSH_DELAY_MS;
  }

  private schedule(what: { toolCalls?: ReadonlySet<string>; transcript?: boolean; status?: boolean; turns?: boolean }, delay = this.flushDelay): void {
    for (const id of what.toolCalls ?? []) this.pendingToolCalls.add(id);
    this.pendingTurns ||= !!what.turns;
    this.pendingTranscript ||= !!what.transcript;
    this.pendingStatus ||= !!what.status;
    if (this.timer) {
      if (delay >= FLUSH_DELAY_MS) return;
      clearTimeout(this.timer); // the rest of a cut patch or reset: at once, not a frame later
    }
    this.timer = setTimeout(() => this.flush(), delay);
  }

  /**
   * The window fell behind or caught up: the progress line starts or stops, and a flush waiting on
   * the slower cadence goes at the new one.
   */
  private cadenceChanged(): void {
    const pacing = this.deps.pacing;
    if (!pacing) return;
    if (pacing.behind) {
      this.postProgress();
      this.progressTimer ??= setInterval(() => this.postProgress(), PROGRESS_EVERY_MS);
      return;
    }
    clearInterval(this.progressTimer);
    this.progressTimer = undefined;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.flush(), this.flushDelay);
    }
    this.postProgress();
  }

  /** The count of the shown session's calls while the window catches up (a few bytes), else nothing. */
  private postProgress(): void {
    const calls = this.shown?.state.toolCalls().length ?? 0;
    const text = this.deps.pacing?.behind && calls > 0 ? catchingUpText(calls) : null;
    if (text === this.postedProgress || !this.deps.panel.isReady) return;
    this.postedProgress = text;
    this.deps.probes?.count('chat.progress');
    this.deps.panel.post({ v: CHAT_PROTOCOL_VERSION, type: 'progress', text });
  }

  private acknowledged(seq: number): void {
    let length: number | undefined;
    while (this.unacknowledged.length > 0 && (this.unacknowledged[0] as { seq: number }).seq <= seq) length = this.unacknowledged.shift()?.length;
    this.deps.pacing?.chatAcknowledged(seq, length);
  }

  private flush(): void {
    try {
      this.flushNow();
    } finally {
      this.turnChanges = undefined;
    }
  }

  private flushNow(): void {
    this.timer = undefined;
    const toolCalls = [...this.pendingToolCalls];
    const transcript = this.pendingTranscript || toolCalls.length > 0;
    const status = this.pendingStatus;
    let turns = this.pendingTurns;
    this.pendingToolCalls.clear();
    this.pendingTranscript = this.pendingStatus = this.pendingTurns = false;
    if (!this.deps.panel.isReady) return; // the next `ready` sends everything
    const turnsWait = turns ? turnsRefreshWait({ now: performance.now(), last: this.turnsRefreshed, busy: this.shown?.busy ?? false }) : 0;
    if (turnsWait > 0) {
      // The action log changes with every edit of a storm: its summaries wait, not the rows.
      turns = false;
      this.pendingTurns = true;
      this.turnsTimer ??= setTimeout(() => {
        this.turnsTimer = undefined;
        this.schedule({}, 0);
      }, turnsWait);
    }
    if (turns) this.turnsRefreshed = performance.now();
    if (this.currentSession() !== this.shown) {
      this.sendReset();
      return;
    }
    if ((transcript || turns) && this.transcript) {
      const patch = transcript ? this.transcript.patch(toolCalls, postBudget()) : this.transcript.refreshTurns();
      if (transcript && turns) {
        const done = new Set(patch.changed.map((c) => c.index));
        patch.changed.push(...this.transcript.refreshTurns().changed.filter((c) => !done.has(c.index)));
        patch.changed.sort((a, b) => a.index - b.index);
      }
      // The rest of a cut patch goes out on the next turn of the event loop, not a frame later.
      if (patch.more) this.schedule({ transcript: true }, 0);
      // A cut patch is posted even when empty: the webview may be waiting for the rest of a reset.
      if (patch.changed.length > 0 || patch.more || this.resetComing) {
        this.deps.probes?.count('chat.patch');
        this.resetComing = !!patch.more;
        const seq = this.deps.pacing?.chatSent(patch.length, onlyText(patch.changed));
        if (seq !== undefined) this.unacknowledged.push({ seq, length: patch.length });
        this.deps.panel.post({
          v: CHAT_PROTOCOL_VERSION,
          type: 'patch',
          length: patch.length,
          changed: packChanges(patch.changed),
          ...(patch.more ? { more: true as const } : {}),
          ...(seq !== undefined ? { seq } : {}),
        });
      }
    }
    if (status) {
      const next = this.status();
      const json = JSON.stringify(next);
      if (json !== this.postedStatus) {
        this.postedStatus = json;
        this.deps.probes?.count('chat.status');
        this.deps.panel.post({ v: CHAT_PROTOCOL_VERSION, type: 'status', status: next });
      }
    }
  }

  private sendReset(): void {
    try {
      this.resetNow();
    } finally {
      this.turnChanges = undefined;
    }
  }

  private resetNow(): void {
    // The page starts over: patches posted before are not acknowledged any more.
    this.unacknowledged.length = 0;
    this.deps.pacing?.chatReset();
    this.postedProgress = null;
    this.shown = this.currentSession();
    const shown = this.shown;
    const turns = this.deps.turns;
    this.transcript = shown
      ? new ChatTranscript(shown.state, {
          callTitle: (call) => callDisplayTitle(call),
          displayPath: (path) => fileDisplayPath(path),
          subagents: {
            child: (parent, childId) => {
              const owner = this.deps.sessions.session(parent.sessionId);
              const child = owner && this.deps.sessions.childOf(owner, childId);
              return child ? { sessionId: child.state.sessionId, state: child.state } : undefined;
            },
            callTitle: (call) => callDisplayTitle(call),
          },
          ...(turns ? { turnChanges: (turn: number) => (this.turnChanges ??= turns.turnChanges(shown.state.sessionId))(turn) } : {}),
        })
      : undefined;
    const status = this.status();
    this.postedStatus = JSON.stringify(status);
    this.deps.probes?.count('chat.reset');
    // A long session goes in parts: the first here, the rest in the patches that follow at once.
    const reset = this.transcript?.reset(postBudget()) ?? { items: [] };
    this.resetComing = !!reset.more;
    if (reset.more) this.schedule({ transcript: true }, 0);
    this.deps.panel.post({ v: CHAT_PROTOCOL_VERSION, type: 'reset', status, items: reset.items.map(packItem), ...(reset.more ? { more: true as const } : {}) });
  }

  /** The subagent's name as its parent announced it. */
  private subagentName(sessionId: string): string | undefined {
    const record = this.deps.sessions.session(sessionId);
    const parent = record?.parent;
    const subagent = parent && this.deps.sessions.session(parent.sessionId)?.state.subagent(parent.childId);
    return subagent ? subagentName(subagent) : undefined;
  }

  /** The forms of the session and of its subagents (a subagent's form names it), each once. */
  private elicitationsOf(sessionId: string | undefined, subtree: readonly SessionRecord[]): ChatElicitation[] {
    const forms = new Map<number, ChatElicitation>();
    for (const form of this.deps.elicitations.pending(sessionId)) forms.set(form.id, form);
    for (const child of subtree) {
      if (child.state.sessionId === sessionId) continue;
      const name = this.subagentName(child.state.sessionId);
      for (const form of this.deps.elicitations.pending(child.state.sessionId)) {
        if (!forms.has(form.id)) forms.set(form.id, name ? { ...form, message: `${name} (subagent) asks: ${form.message}` } : form);
      }
    }
    return [...forms.values()];
  }

  private status(): ChatStatus {
    const session = this.shown;
    const sessionId = session?.state.sessionId;
    const subtree = sessionId ? this.deps.sessions.subtreeOf(sessionId) : [];
    return chatStatus({
      state: session?.state,
      agentName: session?.agentName,
      busy: session?.busy ?? false,
      questions: subtree.flatMap((s) => this.deps.permissions.requests.pending(s.state.sessionId)),
      // A subagent's question says which subagent asks.
      questionTitle: (q) => {
        const name = q.sessionId === sessionId ? undefined : this.subagentName(q.sessionId);
        return name ? `${name} (subagent): ${PermissionService.titleOf(q)}` : PermissionService.titleOf(q);
      },
      questionInspect: (q) => this.deps.permissions.inspectLabel(q.id),
      questionHunks: (q) => this.deps.hunks?.hunkCount(q),
      attachments: this.deps.actions.attachmentChoices(),
      elicitations: this.elicitationsOf(sessionId, subtree),
      acceptsImages: session?.connection.initializeResponse.agentCapabilities?.promptCapabilities?.image === true,
      sessions: switcherEntries(this.openSessions(), sessionId),
      queue: this.deps.queues.view(sessionId),
    });
  }

  private openSessions(): OpenSession[] {
    return openSessionsOf(this.deps.sessions, this.deps.permissions, this.deps.elicitations);
  }
}
