/**
 * The action log of each session (pure): for every file an agent changed in a turn, what it held
 * before the agent's first change of the turn and what the agent left, whatever way the change
 * came (a `fs/write_text_file`, an edit the agent made itself and reported as a tool call, or a file
 * that changed on disk while a command ran). Review, per-hunk Keep/Undo and checkpoints read it.
 */
import { computeHunks, countLines, decodeText, type LineHunk } from './actionHunks';

export type ChangeSource = 'fs' | 'tool' | 'watcher';

/** Files larger than this are never in memory: their texts would bloat the log (see `LargeSnapshot`). */
export const MAX_SNAPSHOT_BYTES = 2 * 1024 * 1024;

/**
 * A file's state at one moment: its exact bytes, absent, a file too large to keep in memory (see
 * `LargeSnapshot`), or not known (and why).
 */
export type Snapshot = { kind: 'absent' } | { kind: 'bytes'; bytes: Uint8Array } | LargeSnapshot | { kind: 'unknown'; reason: string };

/**
 * A file larger than the log keeps texts of (2 MB): its bytes are never in memory. Its change is
 * reviewed and undone as a whole file, never per hunk (their diff would block the extension host).
 * - `blob`: a copy of its bytes in the extension's storage (the text before of a change; undefined
 *   once the change is kept or undone and the copy was dropped);
 * - `sha256`: the hash of its bytes, computed off the event loop after the read (the text after:
 *   what Undo checks the file against); undefined while it is computed or when it could not be.
 */
export interface LargeSnapshot {
  kind: 'large';
  size: number;
  blob?: string;
  sha256?: string;
  /** Why no hash or copy could be taken (the file changed while it was read, say). */
  unreliable?: string;
}

/** `beforeHow` of a command's change whose text before came from the workspace checkpoint. */
export const FROM_CHECKPOINT = 'from the checkpoint before the prompt';

export type HunkState = 'pending' | 'kept' | 'undone';

export interface FileChange {
  /** Unique in its session, increasing in the order changes were first seen. */
  readonly id: number;
  /** Index of the turn's user message in the session. */
  readonly turn: number;
  readonly path: string;
  readonly source: ChangeSource;
  /** Before the agent's first change of this file in the turn. */
  before: Snapshot;
  /** How `before` was obtained when it was not read from the file (e.g. "the agent's hunks reverted"). */
  beforeHow?: string;
  /** The editor's unsaved text when the agent wrote over it (with the user's leave): Undo puts it back. */
  beforeUnsaved?: string;
  /** What the agent left; undefined while it may still be changing the file. */
  after: Snapshot | undefined;
  /** The tool calls that changed the file (none for `fs` and watcher changes). */
  readonly toolCallIds: string[];
  /** One per hunk of `before` → `after`, once `after` is known. */
  hunkStates: HunkState[];
  /**
   * The subagent's session that made the change (absent: the log's own session). A subagent's
   * changes are logged with its top-level session's, so Review, the turn summary and checkpoints
   * see the whole turn; this says whose each one is.
   */
  madeBy?: string;
}

export type FileStatus = 'pending' | 'kept' | 'undone' | 'partial' | 'no-undo';

export interface FileChangeView {
  readonly change: FileChange;
  readonly status: FileStatus;
  /** Why the change cannot be undone (status `no-undo`). */
  readonly reason?: string;
  readonly hunks: readonly LineHunk[];
  readonly added: number;
  readonly removed: number;
  readonly created: boolean;
  readonly deleted: boolean;
  /** A change of a file larger than 2 MB: kept or undone as a whole (one state), no hunks. */
  readonly wholeFile: boolean;
}

/** A snapshot's text; absent is empty. Undefined (with why) when it is not text we may rewrite. */
export function snapshotText(snapshot: Snapshot): { ok: true; text: string; bom: boolean } | { ok: false; reason: string } {
  switch (snapshot.kind) {
    case 'absent':
      return { ok: true, text: '', bom: false };
    case 'bytes':
      return decodeText(snapshot.bytes);
    case 'large':
      return { ok: false, reason: 'larger than 2 MB' };
    case 'unknown':
      return { ok: false, reason: snapshot.reason };
  }
}

export function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
  // Native comparison: the action log asks this of every change on each view refresh, and a
  // JavaScript loop over a 10 MB file's bytes blocks the extension host for ~75 ms (memcmp: ~1 ms).
  if (a.kind === 'bytes' && b.kind === 'bytes') return Buffer.from(a.bytes.buffer, a.bytes.byteOffset, a.bytes.byteLength).equals(b.bytes);
  // Large files are the same only when both hashes are known (the same size then follows).
  if (a.kind === 'large' && b.kind === 'large') return a.sha256 !== undefined && a.sha256 === b.sha256 && a.size === b.size;
  return a.kind === b.kind && a.kind !== 'unknown' && a.kind !== 'large';
}

/** Hunks, status and line counts of a change, the file's after state given when `after` is still open. */
export function viewOf(change: FileChange, currentAfter?: Snapshot): FileChangeView {
  const after = change.after ?? currentAfter ?? { kind: 'unknown', reason: 'not read yet' };
  const exists = (s: Snapshot): boolean => s.kind === 'bytes' || s.kind === 'large';
  const created = change.before.kind === 'absent' && exists(after);
  const deleted = exists(change.before) && after.kind === 'absent';
  const whole = isWholeFile(change.before, after);
  if (whole) {
    // One state for the whole file; the hunks of texts this large are never computed on the host.
    const states = change.after ? change.hunkStates : ['pending' as const];
    const noUndo = wholeFileNoUndo(change.before, states);
    if (noUndo) return { change, status: 'no-undo', reason: noUndo, hunks: [], added: 0, removed: 0, created, deleted, wholeFile: true };
    return { change, status: statusOf(states), hunks: [], added: 0, removed: 0, created, deleted, wholeFile: true };
  }
  const before = snapshotText(change.before);
  const now = snapshotText(after);
  if (!before.ok || !now.ok) {
    const reason = !before.ok ? `no undo: ${before.reason}` : `no undo: ${now.ok ? '' : now.reason}`;
    return { change, status: 'no-undo', reason, hunks: [], added: 0, removed: 0, created, deleted, wholeFile: false };
  }
  const hunks = computeHunks(before.text, now.text);
  const { added, removed } = countLines(hunks);
  const states = change.after ? change.hunkStates : hunks.map((): HunkState => 'pending');
  return { change, status: statusOf(states), hunks, added, removed, created, deleted, wholeFile: false };
}

/**
 * Whether a change is reviewed as a whole file: one side is a large file and the other is known
 * (a file too large to copy, or unreadable, has no undo at all).
 */
export function isWholeFile(before: Snapshot, after: Snapshot): boolean {
  return (before.kind === 'large' || after.kind === 'large') && before.kind !== 'unknown' && after.kind !== 'unknown';
}

/** Why a whole-file change cannot be undone, if it cannot (its states decide when it was dropped on purpose). */
function wholeFileNoUndo(before: Snapshot, states: readonly HunkState[]): string | undefined {
  if (before.kind !== 'large' || before.blob !== undefined) return undefined;
  // Kept or undone: the copy was dropped on purpose and the status says what happened.
  if (states.length > 0 && states.every((s) => s !== 'pending')) return undefined;
  return `no undo: ${before.unreliable ?? 'its copy before is missing from the storage'}`;
}

/** A file's status from its hunks' states. */
export function statusOf(states: readonly HunkState[]): FileStatus {
  if (states.length === 0 || states.some((s) => s === 'pending')) return states.every((s) => s === 'pending') ? 'pending' : 'partial';
  if (states.every((s) => s === 'kept')) return 'kept';
  if (states.every((s) => s === 'undone')) return 'undone';
  return 'partial';
}

/** Whether a change changed anything (a refused write, an edit that changed nothing, do not count). */
export function isEffective(change: FileChange): boolean {
  if (!change.after) return true;
  if (change.before.kind === 'unknown' || change.after.kind === 'unknown') return true;
  if (change.before.kind === 'large' && change.after.kind === 'large' && change.before.sha256 === undefined) {
    // The copy's hash is still being computed: it counts until it proves the same as the file after.
    return true;
  }
  return !sameSnapshot(change.before, change.after);
}

export interface TurnSummary {
  readonly turn: number;
  readonly files: number;
  readonly added: number;
  readonly removed: number;
}

/** "3 files, +12 −4" */
export function summaryText(summary: TurnSummary): string {
  return `${summary.files} ${summary.files === 1 ? 'file' : 'files'}, +${summary.added} −${summary.removed}`;
}

/**
 * What the chat says of each turn, from one pass over a session's change views: undefined when
 * neither the turn nor a later one changed files (nothing to restore), '' when only later ones
 * did, else its summary. The chat asks this of every user message on each refresh; asked turn by
 * turn, each answer scanned the whole log, so a long session cost turns × changes per refresh.
 */
export function turnChangeLabels(
  views: readonly Pick<FileChangeView, 'change' | 'added' | 'removed'>[],
  /** A subagent's name by its session id: with it, the label says what each subagent changed. */
  nameOf?: (sessionId: string) => string,
): (turn: number) => string | undefined {
  const byTurn = new Map<number, { files: number; added: number; removed: number }>();
  let lastTurn = -1;
  for (const view of views) {
    const turn = view.change.turn;
    const sum = byTurn.get(turn) ?? { files: 0, added: 0, removed: 0 };
    sum.files++;
    sum.added += view.added;
    sum.removed += view.removed;
    byTurn.set(turn, sum);
    lastTurn = Math.max(lastTurn, turn);
  }
  return (turn) => {
    if (turn > lastTurn) return undefined;
    const sum = byTurn.get(turn);
    if (!sum) return '';
    const bySubagent = nameOf ? subagentFiles(views, turn, nameOf) : '';
    return summaryText({ turn, ...sum }) + bySubagent;
  };
}

/** " · Read hello (subagent): 1 file": what each subagent changed of a turn, in the order they first did. */
function subagentFiles(views: readonly Pick<FileChangeView, 'change'>[], turn: number, nameOf: (sessionId: string) => string): string {
  const counts = new Map<string, number>();
  for (const view of views) {
    const by = view.change.madeBy;
    if (view.change.turn === turn && by !== undefined) counts.set(by, (counts.get(by) ?? 0) + 1);
  }
  let text = '';
  for (const [by, files] of counts) text += ` · ${nameOf(by)} (subagent): ${files} ${files === 1 ? 'file' : 'files'}`;
  return text;
}

/** A change of the running turn is found by who made it and the file. */
function inTurnKey(madeBy: string | undefined, path: string): string {
  return madeBy === undefined ? path : `${madeBy}\u0000${path}`;
}

/** The running turn's first change of a file, whoever made it. */
function anyKey(path: string): string {
  return `\u0001${path}`;
}

interface SessionLog {
  currentTurn: number;
  nextId: number;
  changes: FileChange[];
  /**
   * The running turn's changes by path, built when first asked: every update of every tool call
   * asks `inTurn`, and a scan of the whole log made a storm of thousands of calls quadratic.
   */
  inTurn?: { readonly turn: number; readonly byPath: Map<string, FileChange> };
}

export class ActionLog {
  private readonly sessions = new Map<string, SessionLog>();
  /** Whose changes are being recorded now (see `attribute`): undefined, the log's own session. */
  private madeBy: string | undefined;

  /**
   * Runs `record` with the changes it records (and the running turn's changes it looks up)
   * attributed to a subagent's session: a file the parent and a subagent both change in one turn
   * is two changes, so each can be undone alone. Synchronous, as capture is.
   */
  attribute<T>(madeBy: string | undefined, record: () => T): T {
    const before = this.madeBy;
    this.madeBy = madeBy;
    try {
      return record();
    } finally {
      this.madeBy = before;
    }
  }

  private session(sessionId: string): SessionLog {
    let log = this.sessions.get(sessionId);
    if (!log) {
      log = { currentTurn: 0, nextId: 1, changes: [] };
      this.sessions.set(sessionId, log);
    }
    return log;
  }

  hasSession(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** A turn begins: changes from now on belong to it. `turn` is its user message's index. */
  beginTurn(sessionId: string, turn: number): void {
    this.session(sessionId).currentTurn = turn;
  }

  currentTurn(sessionId: string): number {
    return this.session(sessionId).currentTurn;
  }

  /** The running turn's change of a file, if it has one. */
  inTurn(sessionId: string, path: string): FileChange | undefined {
    const index = this.inTurnIndex(this.session(sessionId));
    // Not attributed (the session's own calls, the file watcher): a subagent's change of the file
    // counts too, so a write seen on disk is not logged twice.
    return index.get(inTurnKey(this.madeBy, path)) ?? (this.madeBy === undefined ? index.get(anyKey(path)) : undefined);
  }

  private inTurnIndex(log: SessionLog): Map<string, FileChange> {
    if (log.inTurn?.turn !== log.currentTurn) {
      const byPath = new Map<string, FileChange>();
      // The first change of a path in the turn is its change (a later one is never recorded).
      for (const c of log.changes) {
        if (c.turn !== log.currentTurn) continue;
        const key = inTurnKey(c.madeBy, c.path);
        if (!byPath.has(key)) byPath.set(key, c);
        if (!byPath.has(anyKey(c.path))) byPath.set(anyKey(c.path), c);
      }
      log.inTurn = { turn: log.currentTurn, byPath };
    }
    return log.inTurn.byPath;
  }

  /**
   * Records that the agent is changing a file in the running turn. Only the first record of a file
   * in a turn keeps its `before`: later ones add their tool call and reopen `after`.
   */
  record(sessionId: string, path: string, source: ChangeSource, before: Snapshot, toolCallId?: string): FileChange {
    const log = this.session(sessionId);
    let change = this.inTurn(sessionId, path);
    if (!change) {
      change = { id: log.nextId++, turn: log.currentTurn, path, source, before, after: undefined, toolCallIds: [], hunkStates: [], ...(this.madeBy !== undefined ? { madeBy: this.madeBy } : {}) };
      log.changes.push(change);
      const index = this.inTurnIndex(log);
      index.set(inTurnKey(this.madeBy, path), change);
      if (!index.has(anyKey(path))) index.set(anyKey(path), change);
    } else {
      change.after = undefined;
    }
    if (toolCallId && !change.toolCallIds.includes(toolCallId)) change.toolCallIds.push(toolCallId);
    return change;
  }

  /** What the agent left: hunks are counted from here, all pending again. Returns the view it computed, for a cache. */
  setAfter(change: FileChange, after: Snapshot): FileChangeView {
    change.after = after;
    const view = viewOf(change);
    change.hunkStates = view.wholeFile ? ['pending'] : view.hunks.map(() => 'pending');
    return view;
  }

  /** The session's effective changes, oldest first. */
  changes(sessionId: string): FileChange[] {
    return (this.sessions.get(sessionId)?.changes ?? []).filter(isEffective);
  }

  /** The latest change of a file (the one its editor's Keep/Undo act on). */
  latestOf(sessionId: string, path: string): FileChange | undefined {
    return this.changes(sessionId).filter((c) => c.path === path).at(-1);
  }

  byId(sessionId: string, id: number): FileChange | undefined {
    return this.sessions.get(sessionId)?.changes.find((c) => c.id === id);
  }

  /** Turns that changed files, in order. */
  turns(sessionId: string): number[] {
    return [...new Set(this.changes(sessionId).map((c) => c.turn))].sort((a, b) => a - b);
  }

  summary(sessionId: string, turn: number): TurnSummary {
    let added = 0;
    let removed = 0;
    const files = this.changes(sessionId).filter((c) => c.turn === turn);
    for (const change of files) {
      const view = viewOf(change);
      added += view.added;
      removed += view.removed;
    }
    return { turn, files: files.length, added, removed };
  }

  /** Drops what a session recorded (e.g. loaded again from storage). */
  replaceSession(sessionId: string, data: SerializedSession): void {
    this.sessions.set(sessionId, {
      currentTurn: data.currentTurn,
      nextId: Math.max(0, ...data.changes.map((c) => c.id)) + 1,
      changes: data.changes.map((c) => ({
        id: c.id,
        turn: c.turn,
        path: c.path,
        source: c.source,
        before: c.before,
        ...(c.beforeHow ? { beforeHow: c.beforeHow } : {}),
        ...(c.beforeUnsaved !== undefined ? { beforeUnsaved: c.beforeUnsaved } : {}),
        after: c.after,
        toolCallIds: [...c.toolCallIds],
        hunkStates: [...c.hunkStates],
        ...(c.madeBy !== undefined ? { madeBy: c.madeBy } : {}),
      })),
    });
  }

  /** Removes a change that turned out to be none (a command's temporary file that came and went). */
  remove(sessionId: string, change: FileChange): void {
    const log = this.sessions.get(sessionId);
    if (!log) return;
    log.changes = log.changes.filter((c) => c !== change);
    log.inTurn = undefined;
  }

  /** Drops a session from memory (its stored copy stays). */
  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  /** A session's log as plain data (snapshots still as bytes: the storage adapter decides how to keep them). */
  serialize(sessionId: string): SerializedSession | undefined {
    const log = this.sessions.get(sessionId);
    if (!log) return undefined;
    return { currentTurn: log.currentTurn, changes: log.changes.filter(isEffective).map((c) => ({ ...c, toolCallIds: [...c.toolCallIds], hunkStates: [...c.hunkStates] })) };
  }
}

export interface SerializedSession {
  currentTurn: number;
  changes: FileChange[];
}
