import * as vscode from 'vscode';
import { ActionLog, FROM_CHECKPOINT, type FileChange, type FileChangeView, type TurnSummary } from './model/actionLog';
import { Capture, type AppliedCall } from './model/capture';
import type { LogChange } from './model/captureDeps';
import { ChangeViews } from './model/changeViews';
import type { AgentSessions } from '../session/agentSessions';
import { errorMessage, type Logger } from '../base/log';
import { Disposable } from '../base/lifecycle';
import { assertNever } from '../../protocol/assertNever';
import { registerLargeCopies } from '../cards/diff/largeCopies';
import { readSnapshotSync } from './snapshotFiles';
import { ActionLogStore } from './actionLogStore';
import { LargeFiles } from './largeFiles';
import { WorkspaceReads } from './captureReads';
import { subagentName } from '../session/model/subagents';

/**
 * What the agent itself changes is saved this long after the change, all sessions together: a
 * storm of edits (thousands of tool calls in a turn) costs a few writes of the log, not one write
 * of the whole log per call. A turn's end, the user's actions and disposal save at once.
 */
export const SAVE_DELAY_MS = 500;

/**
 * The action log in VS Code: feeds the capture (`model/capture.ts`, which decides what each change
 * is) the session store's tool calls, the file watcher's events and the user's saves, and keeps
 * the log in the workspace's storage. Undo and checkpoints live in `ActionLogActions`.
 */
export class ActionLogCapture extends Disposable {
  readonly log = new ActionLog();
  /** The copies and hashes of files larger than 2 MB. */
  readonly large: LargeFiles;
  private readonly store: ActionLogStore | undefined;
  private readonly changeViews: ChangeViews;
  private readonly capture: Capture;
  /** Sessions changed since their last save (see `SAVE_DELAY_MS`). */
  private readonly unsaved = new Set<string>();
  private saveTimer: NodeJS.Timeout | undefined;
  /** Texts before asked of the checkpoints, not answered yet. */
  private readonly lookups = new Set<Promise<void>>();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<string>());
  /** Fires with the session whose log changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly deps: {
      sessions: AgentSessions;
      /** Where the log is kept; none: in memory only, and no undo of files larger than 2 MB. */
      storageDir: string | undefined;
      log: Logger;
      /** The workspace checkpoints: the text before of what a command changed, when nothing else knew it. */
      checkpoints?: { fileAtPrompt(sessionId: string, turn: number, path: string): Promise<Uint8Array | 'absent' | undefined> };
    },
  ) {
    super();
    const store = deps.storageDir === undefined ? undefined : new ActionLogStore(deps.storageDir, { liveLarge: () => this.large.live(this.log) });
    this.store = store;
    this.large = new LargeFiles({ store, log: deps.log, settled: (sessionId) => this.changedSoon(sessionId) });
    this.changeViews = new ChangeViews({ log: this.log, read: readSnapshotSync });
    this.capture = new Capture({
      log: this.log,
      views: this.changeViews,
      reads: new WorkspaceReads(),
      large: this.large,
      now: Date.now,
      changed: (sessionId, how) => this.logChanged(sessionId, how),
      unknownBefore: (sessionId, change) => this.beforeFromCheckpoint(sessionId, change),
    });
    if (store) {
      this._register(registerLargeCopies((blob) => store.largePath(blob)));
      // Copies a crash or a dropped session left behind (nothing is in memory yet).
      try {
        store.sweepLarge();
      } catch (error) {
        deps.log.warn(`Action log: could not clean up the copies of large files: ${errorMessage(error)}`);
      }
    }
    this._register(deps.sessions.onToolCallApplied((sessionId, applied) => this.callApplied(sessionId, applied)));
    this._register(deps.sessions.onDidChangeSessions(() => this.sessionsChanged()));
    // Deactivation saves what is still waiting for its save, synchronously: the host may exit next.
    this._register({
      dispose: () => {
        this.saveUnsaved();
        try {
          store?.flushSync();
        } catch (error) {
          deps.log.warn(`Action log: could not save: ${errorMessage(error)}`);
        }
      },
    });
    // Both events: the file event may come before the host hears the save is done.
    const noteSave = (document: vscode.TextDocument): void => {
      if (document.uri.scheme === 'file') this.capture.userSaved(document.uri.fsPath, document);
    };
    this._register(vscode.workspace.onWillSaveTextDocument(({ document }) => noteSave(document)));
    this._register(vscode.workspace.onDidSaveTextDocument(noteSave));
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*'));
    const onDisk = (what: 'changed' | 'created' | 'deleted') => (uri: vscode.Uri) => {
      if (uri.scheme === 'file') this.capture.diskChanged(uri.fsPath, what);
    };
    this._register(watcher.onDidChange(onDisk('changed')));
    this._register(watcher.onDidCreate(onDisk('created')));
    this._register(watcher.onDidDelete(onDisk('deleted')));
  }

  /**
   * A command changed a file nothing had read before: the checkpoint taken before the prompt holds
   * its bytes (or shows it did not exist), so its Undo is byte-exact after all.
   */
  private beforeFromCheckpoint(sessionId: string, change: FileChange): void {
    const checkpoints = this.deps.checkpoints;
    if (!checkpoints) return;
    const lookup = checkpoints
      .fileAtPrompt(sessionId, change.turn, change.path)
      .then((found) => {
        // A tool call's own read may have replaced it meanwhile.
        if (found === undefined || change.before.kind !== 'unknown') return;
        change.before = found === 'absent' ? { kind: 'absent' } : { kind: 'bytes', bytes: found };
        change.beforeHow = FROM_CHECKPOINT;
        if (change.after) this.changeViews.setAfter(change, change.after);
        this.changed(sessionId);
      })
      .catch((error: unknown) => this.deps.log.warn(`Action log: the checkpoint could not give ${change.path}: ${errorMessage(error)}`))
      .finally(() => this.lookups.delete(lookup));
    this.lookups.add(lookup);
  }

  /** Resolves once the texts before asked of the checkpoints are in (Undo waits for them). */
  async beforesSettled(): Promise<void> {
    while (this.lookups.size) await Promise.all([...this.lookups]);
  }

  /** A turn begins; `turn` is the index of its user message in the session. */
  beginTurn(sessionId: string, turn: number): void {
    if (!this.log.hasSession(sessionId)) this.loadStored(sessionId);
    this.capture.beginTurn(sessionId, turn);
  }

  /** A tool call the session's store just applied (see `SessionStateOptions.onToolCallApplied`). */
  private callApplied(sessionId: string, applied: AppliedCall): void {
    try {
      // A subagent's changes go in its top-level session's log, attributed to the subagent.
      const root = this.deps.sessions.rootOf(sessionId);
      if (root === sessionId) return this.capture.callApplied(sessionId, applied);
      // A background subagent works on after its parent's turn ended: still that turn's work.
      if (!this.capture.isBusy(root)) this.capture.beginTurn(root, this.log.currentTurn(root));
      this.log.attribute(sessionId, () => this.capture.callApplied(root, applied));
    } catch (error) {
      this.deps.log.error(`Action log: ${errorMessage(error)}`);
    }
  }

  /**
   * Before a `fs/write_text_file`: what the file holds now. Resolves when a large file's copy is
   * done, so that our own write does not overtake it.
   */
  async beforeFsWrite(sessionId: string, path: string): Promise<void> {
    const root = this.deps.sessions.rootOf(sessionId);
    const by = root === sessionId ? undefined : sessionId;
    await this.large.done(this.log.attribute(by, () => this.capture.beforeFsWrite(root, path))?.before);
  }

  /** After a `fs/write_text_file` (`written`, or refused or failed): what the agent left. */
  afterFsWrite(sessionId: string, path: string, written: boolean): void {
    const root = this.deps.sessions.rootOf(sessionId);
    this.log.attribute(root === sessionId ? undefined : sessionId, () => this.capture.afterFsWrite(root, path, written));
  }

  /** Resolves when the copies of the large files a tool call names are done (its permission waits for them). */
  async copiesOf(sessionId: string, toolCallId: string): Promise<void> {
    for (const change of this.log.changes(this.deps.sessions.rootOf(sessionId))) if (change.toolCallIds.includes(toolCallId)) await this.large.done(change.before);
  }

  /** Whether a change's large file is still being copied or hashed (Undo then waits for it). */
  largeBusy(change: FileChange): boolean {
    return this.large.isBusy(change);
  }

  /** The names of the large copies in the storage now. */
  largeCopiesOnDisk(): string[] {
    return this.large.copiesOnDisk();
  }

  views(sessionId: string): FileChangeView[] {
    return this.changeViews.views(sessionId);
  }

  /** A change's hunks and status (see `ChangeViews.view`). */
  view(change: FileChange): FileChangeView {
    return this.changeViews.view(change);
  }

  /** What the chat says of each turn of a session (see `turnChangeLabels`), from the log as it is now. */
  turnChanges(sessionId: string): (turn: number) => string | undefined {
    return this.changeViews.turnChanges(sessionId, (by) => this.subagentName(by));
  }

  /** How Review and the turn summary name a subagent's session: as its parent announced it. */
  subagentName(sessionId: string): string {
    const parent = this.deps.sessions.session(sessionId)?.parent;
    const subagent = parent && this.deps.sessions.session(parent.sessionId)?.state.subagent(parent.childId);
    return subagent ? subagentName(subagent) : 'a closed subagent';
  }

  /** A turn's summary, counting a change still in progress from the file as it is now. */
  summary(sessionId: string, turn: number): TurnSummary {
    return this.changeViews.summary(sessionId, turn);
  }

  /** Marks a path as written by us, so the watcher does not take it for the agent's. */
  markOwn(path: string): void {
    this.capture.markOwn(path);
  }

  /** The log of a session changed by the user's doing (keep, undo, restore): saved now (in the background). */
  changed(sessionId: string): void {
    this.unsaved.delete(sessionId);
    this.save(sessionId);
    this.changeEmitter.fire(sessionId);
  }

  private logChanged(sessionId: string, how: LogChange): void {
    switch (how) {
      case 'shown':
        return this.changeEmitter.fire(sessionId);
      case 'soon':
        return this.changedSoon(sessionId);
      case 'now':
        return this.changed(sessionId);
      default:
        return assertNever(how, 'log change');
    }
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

  /** Turns that ended, sessions opened (their stored log loaded) and sessions cleared (their log leaves memory). */
  private sessionsChanged(): void {
    const { sessions } = this.deps;
    // A session's turn goes on while any of its subagents still works (in the background).
    for (const sessionId of this.capture.busySessions()) if (!sessions.subtreeOf(sessionId).some((s) => s.busy)) this.capture.endTurn(sessionId);
    for (const record of sessions.all) if (!record.connection.process.isAlive) this.capture.agentGone(record.state.sessionId);
    for (const record of sessions.topLevel) if (!this.log.hasSession(record.state.sessionId)) this.loadStored(record.state.sessionId);
    for (const sessionId of this.log.sessionIds()) {
      // A session cleared from the view leaves memory; loading it again reads it back from storage.
      if (sessions.session(sessionId) || this.capture.isBusy(sessionId)) continue;
      // What waits for its save is saved before memory lets go of it.
      if (this.unsaved.delete(sessionId)) this.save(sessionId);
      this.log.forget(sessionId);
    }
  }

  private loadStored(sessionId: string): void {
    const stored = this.store?.load(sessionId);
    if (!stored) return;
    this.log.replaceSession(sessionId, stored);
    // A large change a checkpoint restore undid kept its copy for Undo Restore, which a reload ends.
    for (const change of this.log.changes(sessionId)) if (change.hunkStates.length > 0 && !change.hunkStates.includes('pending')) this.large.dropBefore(change);
  }

  /** Saves the session's log as it is now, in the background: the extension host never waits for the disk. */
  private save(sessionId: string): void {
    const data = this.log.serialize(sessionId);
    if (!data || !this.store) return;
    this.store.saveInBackground(sessionId, data).catch((error: unknown) => {
      this.deps.log.warn(`Action log: could not save session ${sessionId}: ${errorMessage(error)}`);
    });
  }
}
