import * as fs from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type * as acp from '@agentclientprotocol/sdk';
import { decodeText, eolOf, encodeText } from './model/actionHunks';
import { ActionLog, sameSnapshot, statusOf, turnChangeLabels, viewOf, type FileChange, type FileChangeView, type LargeSnapshot, type Snapshot, type TurnSummary } from './model/actionLog';
import { editTargets, mayChangeFiles, reportedBefore, withEol } from './model/editTargets';
import type { AgentSessions } from '../session/agentSessions';
import { errorMessage, type Logger } from '../base/log';
import { Disposable } from '../base/lifecycle';
import { MAX_SNAPSHOT_BYTES, readSnapshotSync, realPath } from './snapshotFiles';
import { fingerprintFile, type ActionLogStore } from './actionLogStore';

/** What the log knows of a tool call: the fields that say which files it edits. */
interface TrackedCall {
  kind: acp.ToolKind | undefined;
  status: acp.ToolCallStatus;
  content: acp.ToolCallContent[];
  locations: acp.ToolCallLocation[];
  /** The last `_meta` that carried a tool response (Claude's `originalFile`). */
  meta: unknown;
  readonly paths: Set<string>;
  finished: boolean;
}

/** What the running turn of a session knows of its tool calls, indexed for the file watcher and the resolver. */
interface TurnCalls {
  readonly byId: Map<string, TrackedCall>;
  /**
   * Each path a call of the turn reported, resolved (`realPath`) when first named: every update of a
   * call names its files again, a storm's calls name the same files again and again, and resolving
   * is two or three system calls each time (~80 ms of a 10,000-call storm). One turn, one key per
   * reported path: its changes stay together even if the path resolves otherwise later.
   */
  readonly resolved: Map<string, string>;
  /** Every path a call of the turn named: a file event of one of them is the call's, not a command's. */
  readonly named: Set<string>;
  /** The calls that may still change files (not finished, of a kind that may): file events are listened to meanwhile. */
  readonly changing: Set<TrackedCall>;
}

const FINISHED: ReadonlySet<acp.ToolCallStatus> = new Set<acp.ToolCallStatus>(['completed', 'failed']);
/** Our own writes show up in the file watcher; they are not the agent's. */
const OWN_WRITE_MS = 3000;
/**
 * File events arrive a little after the change: a command's edits still count as its own for this
 * long after it finished (even when the turn ended meanwhile).
 */
const COMMAND_GRACE_MS = 2500;
/**
 * What the agent itself changes is saved this long after the change, all sessions together: a
 * storm of edits (thousands of tool calls in a turn) costs a few writes of the log, not one write
 * of the whole log per call. A turn's end, the user's actions and disposal save at once.
 */
export const SAVE_DELAY_MS = 500;

/**
 * Records every file the agent changes, per session and turn, however it changed it: through
 * `fs/write_text_file`, itself (reported as tool calls with diffs or edit/delete/move locations),
 * or with a command (seen by a file watcher). A file is read the moment a call first names it,
 * before the agent's own write lands; when the write won, the text before is rebuilt from the
 * agent's report, or marked as unknown — never guessed. Undo and checkpoints live in
 * `ActionLogActions`; this class only captures and stores.
 */
export class ActionLogCapture extends Disposable {
  readonly log = new ActionLog();
  private readonly calls = new Map<string, TurnCalls>();
  /**
   * Per running turn: texts of open, saved documents when a command-like call started (the
   * watcher's "before"); null for a document over the log's size bound, whose text is not kept.
   */
  private readonly docTexts = new Map<string, Map<string, string | null>>();
  /**
   * The text each open document had at its last capture, by version: a document unchanged since
   * (same version, still saved) is not copied again (`getText` joins its lines into a new string:
   * 10–16 ms and 10 MB more for a 10 MB document, at every turn).
   */
  private readonly capturedTexts = new WeakMap<vscode.TextDocument, { version: number; text: string }>();
  private readonly ownWrites = new Map<string, number>();
  /** Changes a `fs/write_text_file` recorded and has not finished: a refused one may leave nothing to list. */
  private readonly freshFsChanges = new WeakSet<FileChange>();
  /**
   * Documents the user saved lately, with their version then. Not a time window like `ownWrites`:
   * a command may change the same file a moment later, and that change is the agent's.
   */
  private readonly userSaves = new Map<string, { document: vscode.TextDocument; version: number; until: number }>();
  private readonly busy = new Set<string>();
  private readonly viewCache = new WeakMap<FileChange, { before: Snapshot; after: Snapshot; view: FileChangeView }>();
  /**
   * The running turn's changes: their view against the file as last read. One tree refresh asks for
   * it several times (the turn's summary, its files, the lenses), and a 10 MB rewrite's hunks cost
   * ~200 ms each time; the file is read each time, the hunks computed only when its bytes differ.
   */
  private readonly openViewCache = new WeakMap<FileChange, { before: Snapshot; current: Snapshot; view: FileChangeView }>();
  /** Per session: until when a file changing on disk is taken for the agent's doing. */
  private readonly commandUntil = new Map<string, number>();
  /** Sessions changed since their last save (see `SAVE_DELAY_MS`). */
  private readonly unsaved = new Set<string>();
  private saveTimer: NodeJS.Timeout | undefined;
  /** Large files being copied (a text before) or hashed (a text after): Undo waits for them. */
  private readonly largeWork = new WeakMap<LargeSnapshot, Promise<void>>();
  private readonly largeBusySnapshots = new WeakSet<LargeSnapshot>();
  /** Large copies used outside the log (a checkpoint restore's copies of the files it replaced). */
  readonly otherLargeCopies = new Set<string>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<string>());
  /** Fires with the session whose log changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly deps: {
      sessions: AgentSessions;
      store: ActionLogStore | undefined;
      log: Logger;
    },
  ) {
    super();
    if (deps.store) {
      const store = deps.store;
      this._register(vscode.workspace.registerFileSystemProvider(LARGE_COPY_SCHEME, new LargeCopies(store), { isReadonly: true, isCaseSensitive: true }));
      store.liveLarge = () => this.liveLarge();
      // Copies a crash or a dropped session left behind (nothing is in memory yet).
      try {
        store.sweepLarge();
      } catch (error) {
        deps.log.warn(`Action log: could not clean up the copies of large files: ${errorMessage(error)}`);
      }
    }
    this._register(
      deps.sessions.onDidChangeSessions(() => {
        for (const sessionId of [...this.busy]) {
          const record = deps.sessions.session(sessionId);
          if (!record?.busy) this.endTurn(sessionId);
        }
        for (const record of deps.sessions.all) if (!this.log.hasSession(record.state.sessionId)) this.loadStored(record.state.sessionId);
        for (const sessionId of this.log.sessionIds()) {
          // A session cleared from the view leaves memory; loading it again reads it back from storage.
          if (deps.sessions.session(sessionId) || this.busy.has(sessionId)) continue;
          // What waits for its save is saved before memory lets go of it.
          if (this.unsaved.delete(sessionId)) this.save(sessionId);
          this.log.forget(sessionId);
        }
      }),
    );
    // Deactivation saves what is still waiting for its save, synchronously: the host may exit next.
    this._register({
      dispose: () => {
        this.saveUnsaved();
        try {
          deps.store?.flushSync();
        } catch (error) {
          deps.log.warn(`Action log: could not save: ${errorMessage(error)}`);
        }
      },
    });
    // A document saved in VS Code is the user's writing (or ours), never a command's: a save just
    // after an agent's command (within its grace) was listed as that command's change, and its
    // Undo put back the text from before the user's own edit. Both events: the file event may come
    // before the host hears the save is done.
    const noteSave = (document: vscode.TextDocument): void => {
      if (document.uri.scheme === 'file') this.userSaves.set(realPath(document.uri.fsPath), { document, version: document.version, until: Date.now() + OWN_WRITE_MS });
    };
    this._register(vscode.workspace.onWillSaveTextDocument(({ document }) => noteSave(document)));
    this._register(vscode.workspace.onDidSaveTextDocument(noteSave));
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*'));
    this._register(watcher.onDidChange((uri) => this.onDiskChange(uri, 'changed')));
    this._register(watcher.onDidCreate((uri) => this.onDiskChange(uri, 'created')));
    this._register(watcher.onDidDelete((uri) => this.onDiskChange(uri, 'deleted')));
  }

  /** A turn begins; `turn` is the index of its user message in the session. */
  beginTurn(sessionId: string, turn: number): void {
    if (!this.log.hasSession(sessionId)) this.loadStored(sessionId);
    this.log.beginTurn(sessionId, turn);
    this.busy.add(sessionId);
    this.calls.set(sessionId, newTurnCalls());
    this.docTexts.delete(sessionId);
  }

  /**
   * A `session/update` (or what a permission request says of its call), synchronously on arrival:
   * the agent may write the file right after sending it.
   */
  receive(notification: acp.SessionNotification): void {
    const { sessionId, update } = notification;
    if (!this.busy.has(sessionId)) return;
    if (update.sessionUpdate !== 'tool_call' && update.sessionUpdate !== 'tool_call_update') return;
    try {
      this.track(sessionId, update);
    } catch (error) {
      this.deps.log.error(`Action log: ${errorMessage(error)}`);
    }
  }

  /**
   * Before a `fs/write_text_file`: what the file holds now. Resolves when a large file's copy is
   * done, so that our own write does not overtake it.
   */
  async beforeFsWrite(sessionId: string, path: string): Promise<void> {
    if (!this.busy.has(sessionId)) this.beginTurn(sessionId, this.log.currentTurn(sessionId));
    const real = this.resolve(sessionId, path);
    this.markOwn(real);
    if (this.inTurnKnown(sessionId, real)) return;
    const change = this.log.record(sessionId, real, 'fs', this.readBefore(sessionId, real));
    this.freshFsChanges.add(change);
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === real);
    if (doc?.isDirty) change.beforeUnsaved = doc.getText();
    if (change.before.kind === 'large') await this.largeWork.get(change.before);
  }

  /**
   * A file's text before the agent changes it, read now. A large file (2–64 MB) is not read: its
   * copy into the storage starts now, off the event loop (see `ActionLogStore.copyLarge`).
   */
  private readBefore(sessionId: string, path: string): Snapshot {
    const snapshot = readSnapshotSync(path);
    if (snapshot.kind !== 'large') return snapshot;
    const store = this.deps.store;
    if (!store) return { kind: 'unknown', reason: 'larger than 2 MB, and there is no storage to keep its copy in' };
    let copy: ReturnType<ActionLogStore['copyLarge']>;
    try {
      copy = store.copyLarge(path);
    } catch (error) {
      return { kind: 'unknown', reason: `larger than 2 MB, and it could not be copied (${errorMessage(error)})` };
    }
    const large: LargeSnapshot = { kind: 'large', size: snapshot.size, blob: copy.blob };
    this.largeBusySnapshots.add(large);
    this.largeWork.set(
      large,
      copy.done.then((result) => {
        this.largeBusySnapshots.delete(large);
        if (result.ok) {
          large.sha256 = result.sha256;
        } else {
          // A torn copy is no text before: no undo rather than an undo to a mix of two versions.
          store.dropLarge(copy.blob);
          delete large.blob;
          large.unreliable = result.reason;
          this.deps.log.warn(`Action log: no undo for ${path}: ${result.reason}`);
        }
        this.changedSoon(sessionId);
      }),
    );
    return large;
  }

  /** What the agent left in a large file: its hash, computed off the event loop (Undo checks the file against it). */
  private fingerprintAfter(sessionId: string, path: string, after: LargeSnapshot): void {
    this.largeBusySnapshots.add(after);
    this.largeWork.set(
      after,
      fingerprintFile(path)
        .then((found) => {
          if (found.kind === 'file' && found.size === after.size) after.sha256 = found.sha256;
          else after.unreliable = 'it changed again while it was being read';
        })
        .catch((error: unknown) => {
          after.unreliable = errorMessage(error);
        })
        .then(() => {
          this.largeBusySnapshots.delete(after);
          this.changedSoon(sessionId);
        }),
    );
  }

  /** Resolves when the copies of the large files a tool call names are done (its permission waits for them). */
  async copiesOf(sessionId: string, toolCallId: string): Promise<void> {
    for (const change of this.log.changes(sessionId)) {
      if (change.before.kind === 'large' && change.toolCallIds.includes(toolCallId)) await this.largeWork.get(change.before);
    }
  }

  /** Whether a change's large file is still being copied or hashed (Undo then waits for it). */
  largeBusy(change: FileChange): boolean {
    return [change.before, change.after].some((s) => s?.kind === 'large' && this.largeBusySnapshots.has(s));
  }

  /** Resolves when the copy and hash of a change's large files are done. */
  async largeSettled(change: FileChange): Promise<void> {
    for (const snapshot of [change.before, change.after]) if (snapshot?.kind === 'large') await this.largeWork.get(snapshot);
  }

  /** Drops the copy of a large file's text before (its change kept or undone). */
  dropLargeBefore(change: FileChange): void {
    if (change.before.kind !== 'large' || change.before.blob === undefined) return;
    this.deps.store?.dropLarge(change.before.blob);
    delete change.before.blob;
  }

  /** The names of the large copies in the storage now. */
  largeCopiesOnDisk(): string[] {
    if (!this.deps.store) return [];
    try {
      return fs.readdirSync(this.deps.store.largeDir);
    } catch {
      return [];
    }
  }

  /** Where a large copy is on disk. */
  largeCopyPath(blob: string): string {
    if (!this.deps.store) throw new Error('There is no storage for copies of large files.');
    return this.deps.store.largePath(blob);
  }

  /** A copy of a large file now (a checkpoint restore keeps what it replaces), or why there is none. */
  async copyLarge(path: string): Promise<{ ok: true; blob: string } | { ok: false; reason: string }> {
    if (!this.deps.store) return { ok: false, reason: 'there is no storage for copies of large files' };
    const copy = this.deps.store.copyLarge(path);
    this.otherLargeCopies.add(copy.blob);
    const result = await copy.done;
    if (result.ok) return { ok: true, blob: copy.blob };
    this.dropLargeCopy(copy.blob);
    return result;
  }

  dropLargeCopy(blob: string): void {
    this.otherLargeCopies.delete(blob);
    this.deps.store?.dropLarge(blob);
  }

  /** The large copies this window uses: the sweep of the storage leaves them alone. */
  private liveLarge(): Set<string> {
    const live = new Set(this.otherLargeCopies);
    for (const sessionId of this.log.sessionIds()) {
      for (const change of this.log.changes(sessionId)) if (change.before.kind === 'large' && change.before.blob) live.add(change.before.blob);
    }
    return live;
  }

  /** After a `fs/write_text_file` (`written`, or refused or failed): what the agent left. */
  afterFsWrite(sessionId: string, path: string, written: boolean): void {
    const change = this.log.inTurn(sessionId, this.resolve(sessionId, path));
    if (!change) return;
    const fresh = this.freshFsChanges.delete(change);
    const after = readSnapshotSync(change.path);
    if (!written && fresh && change.before.kind === 'unknown' && after.kind === 'unknown') {
      // Refused, of something that is no file we can read (a directory, say): nothing changed
      // that we know of, and it was listed as a change without undo.
      this.log.remove(sessionId, change);
      this.changedSoon(sessionId);
      return;
    }
    this.setAfterCached(sessionId, change, after);
    this.changedSoon(sessionId);
  }

  /** `ActionLog.setAfter`, keeping the view it computed: a 10 MB rewrite's hunks cost ~200 ms. */
  private setAfterCached(sessionId: string, change: FileChange, after: Snapshot): void {
    if (after.kind === 'large') this.fingerprintAfter(sessionId, change.path, after);
    const view = this.log.setAfter(change, after);
    this.viewCache.set(change, { before: change.before, after, view });
  }

  views(sessionId: string): FileChangeView[] {
    return this.log.changes(sessionId).map((c) => this.view(c));
  }

  /**
   * A change's hunks and status. The tree, the chat and the lenses ask often; the hunks of a
   * settled change are computed once (until its before or after is replaced), its status each time.
   */
  view(change: FileChange): FileChangeView {
    if (!change.after) {
      const current = readSnapshotSync(change.path);
      const open = this.openViewCache.get(change);
      if (open && open.before === change.before && sameSnapshot(open.current, current)) return open.view;
      const view = viewOf(change, current);
      this.openViewCache.set(change, { before: change.before, current, view });
      return view;
    }
    const cached = this.viewCache.get(change);
    if (cached && cached.before === change.before && cached.after === change.after) {
      // A whole-file view has no hunks to cache, and its copy may turn out torn after it was cached.
      if (cached.view.wholeFile) return viewOf(change);
      return cached.view.status === 'no-undo' ? cached.view : { ...cached.view, status: statusOf(change.hunkStates) };
    }
    const view = viewOf(change);
    this.viewCache.set(change, { before: change.before, after: change.after, view });
    return view;
  }

  /**
   * The running turn's change of a file, unless it is only a file event with nothing known of its
   * text before: the agent's own report of the file (a write, a tool call) then replaces it, since
   * it can read the file before the agent changes it.
   */
  private inTurnKnown(sessionId: string, path: string): FileChange | undefined {
    const existing = this.log.inTurn(sessionId, path);
    if (existing?.source !== 'watcher' || existing.before.kind !== 'unknown') return existing;
    this.log.remove(sessionId, existing);
    return undefined;
  }

  /** What the chat says of each turn of a session (see `turnChangeLabels`), from the log as it is now. */
  turnChanges(sessionId: string): (turn: number) => string | undefined {
    return turnChangeLabels(this.views(sessionId));
  }

  /** A turn's summary, counting a change still in progress from the file as it is now. */
  summary(sessionId: string, turn: number): TurnSummary {
    const views = this.log
      .changes(sessionId)
      .filter((c) => c.turn === turn)
      .map((c) => this.view(c));
    return { turn, files: views.length, added: views.reduce((n, v) => n + v.added, 0), removed: views.reduce((n, v) => n + v.removed, 0) };
  }

  /** Marks a path as written by us, so the watcher does not take it for the agent's. */
  markOwn(path: string): void {
    this.ownWrites.set(path, Date.now() + OWN_WRITE_MS);
  }

  /** The log of a session changed by the user's doing (keep, undo, restore): saved now (in the background). */
  changed(sessionId: string): void {
    this.unsaved.delete(sessionId);
    this.save(sessionId);
    this.changeEmitter.fire(sessionId);
  }

  /** The log changed by the agent's doing: saved with the other changes of the next `SAVE_DELAY_MS`. */
  private changedSoon(sessionId: string): void {
    this.unsaved.add(sessionId);
    this.saveTimer ??= setTimeout(() => this.saveUnsaved(), SAVE_DELAY_MS);
    this.changeEmitter.fire(sessionId);
  }

  private saveUnsaved(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    const sessionIds = [...this.unsaved];
    this.unsaved.clear();
    for (const sessionId of sessionIds) this.save(sessionId);
  }

  /** `realPath` of a path the running turn names, resolved once per turn (see `TurnCalls.resolved`). */
  private resolve(sessionId: string, reported: string): string {
    const resolved = this.turnCalls(sessionId).resolved;
    let path = resolved.get(reported);
    if (path === undefined) {
      path = realPath(reported);
      resolved.set(reported, path);
    }
    return path;
  }

  private turnCalls(sessionId: string): TurnCalls {
    let calls = this.calls.get(sessionId);
    if (!calls) {
      calls = newTurnCalls();
      this.calls.set(sessionId, calls);
    }
    return calls;
  }

  private track(sessionId: string, update: acp.ToolCall | acp.ToolCallUpdate): void {
    const calls = this.turnCalls(sessionId);
    let call = calls.byId.get(update.toolCallId);
    if (!call) {
      call = { kind: undefined, status: 'pending', content: [], locations: [], meta: undefined, paths: new Set(), finished: false };
      calls.byId.set(update.toolCallId, call);
    }
    if (update.kind != null) call.kind = update.kind;
    if (update.status != null) call.status = update.status;
    if (Array.isArray(update.content)) call.content = update.content;
    if (Array.isArray(update.locations)) call.locations = update.locations;
    if ((update._meta as { claudeCode?: { toolResponse?: unknown } } | undefined)?.claudeCode?.toolResponse) call.meta = update._meta;
    const finished = FINISHED.has(call.status);
    if (mayChangeFiles(call.kind)) {
      if (!call.finished) this.rememberOpenDocuments(sessionId);
      this.commandUntil.set(sessionId, finished ? Date.now() + COMMAND_GRACE_MS : Infinity);
    }
    // A later update may say the call is of a quiet kind after all (`kind` first missing).
    if (!finished && !call.finished && mayChangeFiles(call.kind)) calls.changing.add(call);
    else calls.changing.delete(call);

    for (const reported of editTargets(call)) {
      const path = this.resolve(sessionId, reported);
      if (call.paths.has(path)) continue;
      call.paths.add(path);
      calls.named.add(path);
      const existing = this.inTurnKnown(sessionId, path);
      if (existing) {
        this.log.record(sessionId, path, existing.source, existing.before, update.toolCallId);
      } else if (finished) {
        // First named once done: the file holds the agent's result, the report tells what was before.
        const after = readSnapshotSync(path);
        const before = this.beforeFromReport(path, call, after);
        // Nothing to list when the report does not say the file changed (a failed call, say).
        if (before.kind === 'unknown' && !(call.status === 'completed' && this.reportsChange(sessionId, call, path))) continue;
        const change = this.log.record(sessionId, path, 'tool', before, update.toolCallId);
        change.beforeHow = 'reported after writing';
      } else {
        this.log.record(sessionId, path, 'tool', this.readBefore(sessionId, path), update.toolCallId);
      }
      this.changeEmitter.fire(sessionId);
    }
    if (finished && !call.finished) {
      call.finished = true;
      // A call that named no file left nothing in the log to settle, save or show.
      if (call.paths.size === 0) return;
      for (const path of call.paths) this.settle(sessionId, path, call);
      this.changedSoon(sessionId);
    }
  }

  /** The call is done with a file: what it left, and a check that our "before" was read in time. */
  private settle(sessionId: string, path: string, call: TrackedCall): void {
    const change = this.log.inTurn(sessionId, path);
    if (!change) return;
    const after = readSnapshotSync(path);
    if (change.before.kind === 'absent' && after.kind === 'absent' && call.kind === 'delete') {
      // Gone before we could read it: list it, without an undo we cannot back.
      change.before = { kind: 'unknown', reason: 'the agent deleted it before it could be read' };
    }
    if (change.beforeHow === undefined && hasOriginalFile(call.meta, path)) {
      // The agent's own copy of what it replaced beats our read, which a fast write may have torn.
      const reported = this.beforeFromReport(path, call, after);
      if (reported.kind !== 'unknown') {
        this.dropLargeBefore(change);
        change.before = reported;
        change.beforeHow = "the agent's copy of the original";
      }
    } else if (change.before.kind === 'bytes' && after.kind === 'bytes' && change.beforeHow === undefined) {
      const rebuilt = this.beforeFromReport(path, call, after);
      if (sameSnapshot(change.before, after)) {
        // The file reads the same before and after. If the agent reports a change, its write beat
        // our read: take the text before from its report, or say it is not known. A failed call,
        // or one that reports no change, changed nothing.
        if (rebuilt.kind === 'unknown' ? call.status === 'completed' && this.reportsChange(sessionId, call, path) : !sameSnapshot(rebuilt, after)) {
          change.before = rebuilt;
          change.beforeHow = rebuilt.kind === 'unknown' ? undefined : "rebuilt from the agent's report";
        }
      } else if (change.before.bytes.length === 0 && rebuilt.kind === 'bytes' && rebuilt.bytes.length > 0) {
        // An empty read of a file the agent's hunks say was not empty: we read it mid-write (a
        // write truncates first). The report is right.
        change.before = rebuilt;
        change.beforeHow = "rebuilt from the agent's report";
      }
    }
    this.setAfterCached(sessionId, change, after);
  }

  /** Whether the call's diffs of the file say it changed something. */
  private reportsChange(sessionId: string, call: TrackedCall, path: string): boolean {
    return call.content.some((c) => c.type === 'diff' && this.resolve(sessionId, c.path) === path && (c.oldText ?? null) !== c.newText);
  }

  private beforeFromReport(path: string, call: TrackedCall, after: Snapshot): Snapshot {
    // A text rebuilt from a report guesses line endings and BOM from the file after, which is not
    // read when large: no whole-file undo to bytes that are not known to be the file's.
    if (after.kind === 'large') return { kind: 'unknown', reason: 'the agent wrote it before it could be copied (larger than 2 MB)' };
    const afterText = after.kind === 'bytes' ? decodeText(after.bytes) : after.kind === 'absent' ? { ok: true as const, text: '', bom: false } : undefined;
    const lf = afterText?.ok ? afterText.text.replace(/\r\n/g, '\n') : undefined;
    const reported = reportedBefore(path, call.content, call.meta, lf);
    switch (reported.kind) {
      case 'absent':
        return { kind: 'absent' };
      case 'unknown':
        return { kind: 'unknown', reason: `the agent wrote it before it could be read, and ${reported.reason}` };
      case 'text': {
        // In the file's own line endings and BOM, which an edit of some lines does not change.
        const eol = afterText?.ok ? eolOf(afterText.text) : '\n';
        return { kind: 'bytes', bytes: encodeText(withEol(reported.text, eol), afterText?.ok ? afterText.bom : false) };
      }
    }
  }

  private endTurn(sessionId: string): void {
    this.busy.delete(sessionId);
    // File events arrive late: the documents' earlier texts stay until the next turn begins.
    if (this.commandUntil.get(sessionId) === Infinity) this.commandUntil.set(sessionId, Date.now() + COMMAND_GRACE_MS);
    // Whatever is still open (a watcher change, a call that never reported its end) ends with the turn.
    for (const change of this.log.changes(sessionId)) if (!change.after) this.setAfterCached(sessionId, change, readSnapshotSync(change.path));
    this.changed(sessionId);
  }

  /**
   * Once per turn, at its first call that may change files: the text of each open, saved document,
   * for a command that changes it (the same string as at the last capture while the document did
   * not change). The document's text, not the file's: VS Code reloads it only after a command
   * changed the file, so it is still the text before when the command won the race to the file.
   */
  private rememberOpenDocuments(sessionId: string): void {
    if (this.docTexts.has(sessionId)) return;
    const texts = new Map<string, string | null>();
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== 'file' || doc.isDirty) continue;
      const path = doc.uri.fsPath;
      // The log keeps no text over its size bound in memory (see MAX_SNAPSHOT_BYTES): joining the
      // lines of a 10 MB document held the host 25–44 ms and kept 10 MB per open large document.
      // Its length in characters (never more than its UTF-8 bytes) is counted without joining.
      if (doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end) > MAX_SNAPSHOT_BYTES) {
        this.capturedTexts.delete(doc);
        texts.set(path, null);
        continue;
      }
      const captured = this.capturedTexts.get(doc);
      if (captured?.version === doc.version) {
        texts.set(path, captured.text);
        continue;
      }
      const text = doc.getText();
      this.capturedTexts.set(doc, { version: doc.version, text });
      texts.set(path, text);
    }
    this.docTexts.set(sessionId, texts);
  }

  private onDiskChange(uri: vscode.Uri, what: 'changed' | 'created' | 'deleted'): void {
    if (uri.scheme !== 'file' || /[\\/]\.git[\\/]/.test(uri.fsPath)) return;
    const now = Date.now();
    // Indexed (`TurnCalls`): a command's run in a storm turn sees many file events, and each one
    // scanned every call of the turn twice.
    const listening = [...this.calls].filter(([sessionId, calls]) => (this.commandUntil.get(sessionId) ?? 0) >= now || calls.changing.size > 0);
    // Outside a command's run (a build, a checkout), file events cost nothing more than this.
    if (listening.length === 0) return;
    for (const [p, until] of this.ownWrites) if (until < now) this.ownWrites.delete(p);
    const path = realPath(uri.fsPath);
    if (this.ownWrites.has(path)) return;
    if (this.isUserSave(path, now)) return;
    for (const [sessionId, calls] of listening) {
      if (calls.named.has(path)) return;
      const existing = this.log.inTurn(sessionId, path);
      if (existing && existing.source !== 'watcher') return;
      const onDisk = readSnapshotSync(path);
      // A folder a command made (or touched) is no file it changed: it was listed without undo.
      if (!existing && onDisk.kind === 'unknown' && fs.statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
        // Files a command writes into a folder it just made can come before the watcher watches the
        // folder (`mkdir d && printf x > d/f`): no event tells of them, so they are looked for here.
        if (what === 'created') for (const file of filesIn(path)) this.onDiskChange(vscode.Uri.file(file), 'created');
        return;
      }
      // Taken once: it reads the file and encodes the document's text.
      const before = existing ? existing.before : this.watcherBefore(sessionId, path, what);
      if (onDisk.kind === 'absent' && before.kind !== 'bytes') {
        // Gone again, and not known to have existed before: a temporary file (`sed -i` makes one).
        if (existing) this.log.remove(sessionId, existing);
        return;
      }
      const change = existing ?? this.log.record(sessionId, path, 'watcher', before);
      // The command already ran: what is on disk now is what it left (a later event updates it).
      this.setAfterCached(sessionId, change, onDisk);
      this.changedSoon(sessionId);
      return;
    }
  }

  /**
   * Whether the file holds just what the user saved: the document is unchanged since the save (VS
   * Code reloading it after a command's change is a new version) and its text is the file's. Not
   * whether it is dirty: the host may hear that the save made it clean after the file event.
   */
  private isUserSave(path: string, now: number): boolean {
    for (const [p, save] of this.userSaves) if (save.until < now || save.document.isClosed) this.userSaves.delete(p);
    const save = this.userSaves.get(path);
    if (!save || save.document.version !== save.version) return false;
    const onDisk = readSnapshotSync(path);
    if (onDisk.kind !== 'bytes') return false;
    const decoded = decodeText(onDisk.bytes);
    return decoded.ok && decoded.text === save.document.getText();
  }

  /**
   * A file changed by a command: its text before is known only when it was open and saved when the
   * command started. A "created" event is no proof the file was new (`sed -i` renames a temporary
   * file over the original), so it is not taken as one.
   */
  private watcherBefore(sessionId: string, path: string, what: 'changed' | 'created' | 'deleted'): Snapshot {
    const text = this.docTexts.get(sessionId)?.get(path);
    const by = `changed by a command${what === 'changed' ? '' : ` (${what})`}`;
    if (text === undefined) return { kind: 'unknown', reason: `${by}; its earlier text was not captured` };
    if (text === null) return { kind: 'unknown', reason: `${by}; larger than ${MAX_SNAPSHOT_BYTES / 1024 / 1024} MB, its earlier text was not kept` };
    const now = readSnapshotSync(path);
    const decoded = now.kind === 'bytes' ? decodeText(now.bytes) : undefined;
    return { kind: 'bytes', bytes: encodeText(text, decoded?.ok ? decoded.bom : false) };
  }

  private loadStored(sessionId: string): void {
    const stored = this.deps.store?.load(sessionId);
    if (!stored) return;
    this.log.replaceSession(sessionId, stored);
    // A large change a checkpoint restore undid kept its copy for Undo Restore, which a reload ends.
    for (const change of this.log.changes(sessionId)) if (change.hunkStates.length > 0 && !change.hunkStates.includes('pending')) this.dropLargeBefore(change);
  }

  /** Saves the session's log as it is now, in the background: the extension host never waits for the disk. */
  private save(sessionId: string): void {
    const data = this.log.serialize(sessionId);
    if (!data || !this.deps.store) return;
    this.deps.store.saveInBackground(sessionId, data).catch((error: unknown) => {
      this.deps.log.warn(`Action log: could not save session ${sessionId}: ${errorMessage(error)}`);
    });
  }
}

function hasOriginalFile(meta: unknown, path: string): boolean {
  const response = (meta as { claudeCode?: { toolResponse?: { filePath?: unknown; originalFile?: unknown } } } | undefined)?.claudeCode?.toolResponse;
  return response?.filePath === path && response.originalFile !== undefined;
}

/** At most this many files of a folder a command made are listed (a build's output folder stays quiet). */
const MAX_FILES_IN_NEW_FOLDER = 100;
/** Folders VS Code's file watcher leaves out by default, never walked here either. */
const UNWATCHED_FOLDERS = new Set(['.git', 'node_modules']);

/** The files under a folder, breadth first, at most MAX_FILES_IN_NEW_FOLDER of them. */
function filesIn(folder: string): string[] {
  const files: string[] = [];
  const folders = [folder];
  for (let i = 0; i < folders.length && files.length < MAX_FILES_IN_NEW_FOLDER; i++) {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folders[i], { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(folders[i], entry.name);
      if (entry.isDirectory() && !UNWATCHED_FOLDERS.has(entry.name)) folders.push(path);
      else if (entry.isFile() && files.length < MAX_FILES_IN_NEW_FOLDER) files.push(path);
    }
  }
  return files;
}

function newTurnCalls(): TurnCalls {
  return { byId: new Map(), resolved: new Map(), named: new Set(), changing: new Set() };
}

/** Where the diff editor reads a large file's copy from: read-only, so nobody edits the text before. */
export const LARGE_COPY_SCHEME = 'acp-native-large';

/** The URI of a large copy, ending in the file's own name (for its language mode). */
export function largeCopyUri(blob: string, fileName: string): vscode.Uri {
  return vscode.Uri.from({ scheme: LARGE_COPY_SCHEME, path: `/${blob}/${fileName}` });
}

/** The copies of large files, read-only, for VS Code's diff editor (it diffs them off the extension host). */
class LargeCopies implements vscode.FileSystemProvider {
  private readonly never = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.never.event;

  constructor(private readonly store: ActionLogStore) {}

  private fileOf(uri: vscode.Uri): string {
    const blob = uri.path.split('/')[1] ?? '';
    try {
      return this.store.largePath(blob);
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    try {
      const stat = await fs.promises.stat(this.fileOf(uri));
      return { type: vscode.FileType.File, ctime: stat.ctimeMs, mtime: stat.mtimeMs, size: stat.size, permissions: vscode.FilePermission.Readonly };
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    try {
      return await fs.promises.readFile(this.fileOf(uri));
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }
}
