import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import * as vscode from 'vscode';
import { decodeText, encodeText } from './model/actionHunks';
import { snapshotText, viewOf, type FileChange, type Snapshot } from './model/actionLog';
import { mergedPerHunk, planReapply, planRestore, planUndo, planWholeUndo, restoreFiles, type CurrentFile, type FileFingerprint, type UndoAction } from './model/undoPlan';
import type { Logger } from '../base/log';
import { fileDisplayPath } from '../workspace/titles';
import type { ActionLogCapture } from './actionLogCapture';
import { largeCopyUri } from '../cards/diff/largeCopies';
import { fingerprintFile } from './largeFileCopy';
import { currentFile, readSnapshotSync } from './snapshotFiles';
import { openDocumentOf } from '../workspace/workspaceText';
import type { ScratchDocuments } from '../workspace/scratchDocuments';
import type { Checkpoints, WorkspaceRestore } from '../checkpoints/checkpoints';
import { Disposable } from '../base/lifecycle';

/** How long an open document may take to show what is on disk before we write the disk instead. */
const RELOAD_WAIT_MS = 3000;

export interface UndoOutcome {
  /** Hunks undone (indexes in the change). */
  undone: number[];
  /** Hunks left alone: the user (or a later turn) changed their lines after the agent. */
  conflicts: number[];
  /** Why nothing could be undone. */
  refused?: string;
}

export interface ReapplyOutcome {
  /** Hunks re-applied (indexes in the change): kept now. */
  reapplied: number[];
  /** Hunks left alone: the user changed the lines their undo put back. */
  conflicts: number[];
  /** Why nothing could be re-applied. */
  refused?: string;
}

interface RestorePoint {
  sessionId: string;
  turn: number;
  files: { path: string; state: Snapshot; unsaved?: string }[];
  states: { id: number; hunkStates: FileChange['hunkStates'] }[];
  /** Whole-file changes the restore undid: their copies before are dropped once it can no longer be taken back. */
  undoneLarge: FileChange[];
  /** What the workspace checkpoint restored beside the action log's changes. */
  workspace?: WorkspaceRestore;
}

/** What "Restore to before this prompt" will do: the action log's files, and the rest of the workspace the turns changed. */
export interface RestorePlan {
  readonly sessionId: string;
  readonly turn: number;
  /** The action log's files, undone change by change. */
  readonly files: string[];
  /** Every other file the turns changed, from the workspace checkpoints (none without git). */
  readonly workspace: WorkspaceRestore | undefined;
  /**
   * Files the user changed since that the action log still merges per hunk (see
   * `mergedPerHunk`): the agent's hunks taken back, the user's kept, clashes listed.
   */
  readonly merged: string[];
}

export interface RestoreResult {
  files: string[];
  conflicts: { path: string; hunks: number[] }[];
  refused: { path: string; reason: string }[];
}

/**
 * Keep and Undo over the action log: per hunk, per file, per turn, and "Restore to before this
 * prompt". Plans come from the pure core; this class reads the files and carries plans out —
 * through the editor (an undoable edit) where a document is open, exact bytes on disk otherwise.
 * A document's unsaved text is never overwritten: undo edits it in place and leaves it unsaved.
 */
export class ActionLogActions extends Disposable {
  private readonly reapplyEmitter = this._register(new vscode.EventEmitter<{ readonly sessionId: string; readonly change: FileChange; readonly reapplied: readonly number[] }>());
  /** Undone hunks of a change were re-applied (a partial approval tells the agent). */
  readonly onDidReapply = this.reapplyEmitter.event;
  /** The last checkpoint restore, so it can itself be undone. */
  private lastRestore: RestorePoint | undefined;
  /** While a checkpoint restore runs: the whole-file changes it undoes (their copies stay for Undo Restore). */
  private restoringLarge: FileChange[] | undefined;

  constructor(private readonly deps: { capture: ActionLogCapture; scratch: ScratchDocuments; log: Logger; checkpoints?: Checkpoints }) {
    super();
  }

  private get log() {
    return this.deps.capture.log;
  }

  change(sessionId: string, changeId: number): FileChange {
    const change = this.log.byId(sessionId, changeId);
    if (!change) throw new Error('This change is no longer in the log.');
    return change;
  }

  keepHunk(sessionId: string, changeId: number, index: number): boolean {
    const change = this.change(sessionId, changeId);
    if (change.hunkStates[index] !== 'pending') return false;
    change.hunkStates[index] = 'kept';
    this.droppedIfSettled(change);
    this.deps.capture.changed(sessionId);
    return true;
  }

  keepFile(sessionId: string, changeId: number): void {
    const change = this.change(sessionId, changeId);
    change.hunkStates = change.hunkStates.map((s) => (s === 'pending' ? 'kept' : s));
    this.droppedIfSettled(change);
    this.deps.capture.changed(sessionId);
  }

  keepTurn(sessionId: string, turn: number): void {
    for (const change of this.log.changes(sessionId).filter((c) => c.turn === turn)) {
      change.hunkStates = change.hunkStates.map((s) => (s === 'pending' ? 'kept' : s));
      this.droppedIfSettled(change);
    }
    this.deps.capture.changed(sessionId);
  }

  /** A whole-file change kept or undone needs its copy before no more: it leaves the storage. */
  private droppedIfSettled(change: FileChange): void {
    if (change.hunkStates.length > 0 && change.hunkStates.every((s) => s !== 'pending') && this.deps.capture.view(change).wholeFile) {
      this.deps.capture.large.dropBefore(change);
    }
  }

  /** Undoes hunks of a change (all when `indexes` is omitted), leaving the user's later edits alone. */
  async undo(sessionId: string, changeId: number, indexes?: number[]): Promise<UndoOutcome> {
    await this.deps.capture.beforesSettled();
    const change = this.change(sessionId, changeId);
    const outcome = await this.carryOut(change, indexes);
    this.deps.capture.changed(sessionId);
    return outcome;
  }

  /**
   * Re-applies undone hunks of a change (all of them when `indexes` is omitted): Undo taken back,
   * the hunks as the agent wrote them, kept. A hunk whose restored lines the user changed since
   * is left alone, as Undo leaves a hunk the user changed.
   */
  async reapply(sessionId: string, changeId: number, indexes?: number[]): Promise<ReapplyOutcome> {
    await this.deps.capture.beforesSettled();
    const change = this.change(sessionId, changeId);
    const view = this.deps.capture.view(change);
    // A file over 2 MB is refused before the file now is looked at: it is not read for nothing.
    const current: CurrentFile = view.wholeFile ? { kind: 'absent' } : currentFile(change.path, await openDocumentOf(change.path));
    const plan = planReapply(change, current, indexes, view);
    await this.apply(change.path, plan.action);
    for (const i of plan.reapplied) change.hunkStates[i] = 'kept';
    if (plan.conflicts.length) this.deps.log.info(`Action log: left ${plan.conflicts.length} undone hunk(s) of ${change.path} alone: changed since the undo`);
    this.deps.capture.changed(sessionId);
    if (plan.reapplied.length) this.reapplyEmitter.fire({ sessionId, change, reapplied: [...plan.reapplied] });
    return { reapplied: [...plan.reapplied], conflicts: [...plan.conflicts], ...(plan.refused ? { refused: plan.refused } : {}) };
  }

  /**
   * Takes back one subagent's changes alone (and its own subagents'), newest first: its parent's
   * and its siblings' changes stay. `madeBy` holds the subagent's session and those under it.
   */
  async undoSubagent(sessionId: string, madeBy: ReadonlySet<string>): Promise<UndoOutcome[]> {
    const outcomes: UndoOutcome[] = [];
    const changes = this.log.changes(sessionId).filter((c) => c.madeBy !== undefined && madeBy.has(c.madeBy));
    for (const change of changes.reverse()) {
      const indexes = pendingIndexes(change);
      if (indexes.length > 0) outcomes.push(await this.carryOut(change, indexes));
    }
    this.deps.capture.changed(sessionId);
    return outcomes;
  }

  async undoTurn(sessionId: string, turn: number): Promise<UndoOutcome[]> {
    await this.deps.capture.beforesSettled();
    const outcomes: UndoOutcome[] = [];
    for (const change of planRestore(this.log.changes(sessionId), turn).filter((c) => c.turn === turn)) {
      outcomes.push(await this.carryOut(change, pendingIndexes(change)));
    }
    this.deps.capture.changed(sessionId);
    return outcomes;
  }

  /** The files "Restore to before this prompt" would touch. */
  restoreFiles(sessionId: string, turn: number): string[] {
    return restoreFiles(planRestore(this.log.changes(sessionId), turn));
  }

  /**
   * What a restore to before `turn` does: the action log's changes, and every other file the turns
   * changed by any means (the workspace checkpoints, planned against a checkpoint of now).
   */
  async planCheckpointRestore(sessionId: string, turn: number): Promise<RestorePlan> {
    await this.deps.capture.beforesSettled();
    const changes = planRestore(this.log.changes(sessionId), turn);
    // The action log undoes what it can per hunk; what it cannot (no text before) the checkpoint restores.
    const undoable = new Set(changes.filter((c) => this.deps.capture.view(c).status !== 'no-undo').map((c) => c.path));
    let workspace: WorkspaceRestore | undefined;
    try {
      workspace = await this.deps.checkpoints?.planRestore(sessionId, turn, undoable);
    } catch (error) {
      this.deps.log.warn(`Checkpoints: no whole-workspace restore: ${(error as Error).message}`);
    }
    const merged = mergedPerHunk(changes, workspace?.userChanged ?? [], (c) => this.deps.capture.view(c).status !== 'no-undo');
    return { sessionId, turn, files: restoreFiles(changes), workspace, merged: [...merged] };
  }

  /**
   * Undoes, newest first, every change of `turn` and the turns after it, and puts back every other
   * file the turns changed (the workspace checkpoint), as one step that `undoRestore` takes back.
   */
  async restoreCheckpoint(sessionId: string, turn: number, planned?: RestorePlan): Promise<RestoreResult> {
    const whole = planned?.sessionId === sessionId && planned.turn === turn ? planned : await this.planCheckpointRestore(sessionId, turn);
    // The checkpoints know which files the user changed between turns. Those the agent reported
    // changing are merged per hunk below; the rest (the watcher may have taken an edit just after
    // a command for the command's) stay as they are, listed.
    const merged = new Set(whole.merged);
    const theirs = new Set((whole.workspace?.userChanged ?? []).filter((p) => !merged.has(p)));
    const all = planRestore(this.log.changes(sessionId), turn);
    const plan = all.filter((c) => !theirs.has(c.path));
    const leftToTheUser = restoreFiles(all).filter((p) => theirs.has(p));
    const files = restoreFiles(plan);
    if (this.lastRestore) this.expire(this.lastRestore);
    this.lastRestore = undefined;
    const point: RestorePoint = {
      sessionId,
      turn,
      files: await Promise.all(
        files.map(async (path) => {
          const doc = await openDocumentOf(path);
          return { path, state: await this.stateNow(path), ...(doc?.isDirty ? { unsaved: doc.getText() } : {}) };
        }),
      ),
      states: plan.map((c) => ({ id: c.id, hunkStates: [...c.hunkStates] })),
      undoneLarge: [],
    };
    this.lastRestore = point;
    const conflicts: { path: string; hunks: number[] }[] = [];
    const refused: { path: string; reason: string }[] = [];
    this.restoringLarge = point.undoneLarge;
    try {
      for (const change of plan) {
        const outcome = await this.carryOut(change);
        if (outcome.conflicts.length) conflicts.push({ path: change.path, hunks: outcome.conflicts });
        if (outcome.refused) refused.push({ path: change.path, reason: outcome.refused });
      }
    } finally {
      this.restoringLarge = undefined;
    }
    const restored = [...files];
    if (whole.workspace && this.deps.checkpoints) {
      point.workspace = whole.workspace;
      const done = await this.deps.checkpoints.applyRestore(whole.workspace, (p) => this.deps.capture.markOwn(p));
      const byCheckpoint = new Set(done);
      for (const p of done) if (!restored.includes(p)) restored.push(p);
      // What the log could not undo, the checkpoint did.
      for (let i = refused.length - 1; i >= 0; i--) if (byCheckpoint.has(refused[i].path)) refused.splice(i, 1);
      // A merged file is a conflict only where its undo left hunks alone (listed by it above).
      for (const p of [...whole.workspace.conflicts, ...leftToTheUser]) if (!merged.has(p) && !conflicts.some((c) => c.path === p)) conflicts.push({ path: p, hunks: [] });
      for (const p of whole.workspace.notStored) refused.push({ path: p, reason: 'larger than the checkpoint size limit' });
      for (const change of plan) if (byCheckpoint.has(change.path)) change.hunkStates = change.hunkStates.map(() => 'undone');
    }
    this.deps.capture.changed(sessionId);
    this.deps.log.info(`Action log: restored ${restored.length} files to before prompt ${turn + 1}`);
    return { files: restored, conflicts, refused };
  }

  /** A file's state for Undo Restore: its bytes, or a copy in storage when it is large. */
  private async stateNow(path: string): Promise<Snapshot> {
    const state = readSnapshotSync(path);
    if (state.kind !== 'large') return state;
    const copy = await this.deps.capture.large.copy(path);
    return copy.ok ? { kind: 'large', size: state.size, blob: copy.blob } : { kind: 'unknown', reason: copy.reason };
  }

  /** A restore that can no longer be taken back: its copies, and those of the large changes it undid, go. */
  private expire(point: RestorePoint): void {
    for (const file of point.files) if (file.state.kind === 'large' && file.state.blob) this.deps.capture.large.dropCopy(file.state.blob);
    for (const change of point.undoneLarge) this.droppedIfSettled(change);
  }

  get canUndoRestore(): boolean {
    return this.lastRestore !== undefined;
  }

  /** Puts back what the last checkpoint restore replaced. */
  async undoRestore(): Promise<string[]> {
    const point = this.lastRestore;
    if (!point) throw new Error('There is no checkpoint restore to undo.');
    this.lastRestore = undefined;
    for (const file of point.files) {
      if (file.state.kind === 'unknown') continue;
      const current = readSnapshotSync(file.path);
      if (file.state.kind === 'absent') {
        if (current.kind === 'bytes' || current.kind === 'large') await this.deleteFile(file.path);
      } else if (file.state.kind === 'large') {
        if (!file.state.blob) continue;
        await this.copyBack(file.path, file.state.blob);
        this.deps.capture.large.dropCopy(file.state.blob);
      } else {
        await this.writeBytes(file.path, file.state.bytes);
      }
      if (file.unsaved !== undefined) await this.editDocument(file.path, file.unsaved, false);
    }
    const paths = point.files.map((f) => f.path);
    if (point.workspace && this.deps.checkpoints) {
      for (const p of await this.deps.checkpoints.undoRestore(point.workspace, (p) => this.deps.capture.markOwn(p))) if (!paths.includes(p)) paths.push(p);
    }
    for (const { id, hunkStates } of point.states) {
      const change = this.log.byId(point.sessionId, id);
      if (change) change.hunkStates = hunkStates;
    }
    this.deps.capture.changed(point.sessionId);
    return paths;
  }

  /** Opens a turn's changed files together in the multi-diff editor: before ↔ the real file. */
  async openTurn(sessionId: string, turn: number): Promise<void> {
    const changes = this.log.changes(sessionId).filter((c) => c.turn === turn);
    if (changes.length === 0) {
      void vscode.window.showInformationMessage('The agent changed no file in this turn.');
      return;
    }
    const entries = changes.map((change) => {
      const uri = vscode.Uri.file(change.path);
      return [uri, this.beforeUri(change), uri] as const;
    });
    // VS Code's multi-diff editor appends the count of files itself: `Agent changes (2 files)`.
    await vscode.commands.executeCommand('vscode.changes', 'Agent changes', entries);
  }

  async openFile(sessionId: string, changeId: number): Promise<void> {
    const change = this.change(sessionId, changeId);
    await vscode.commands.executeCommand('vscode.diff', this.beforeUri(change), vscode.Uri.file(change.path), `${fileDisplayPath(change.path)} (before ↔ agent)`);
  }

  private beforeUri(change: FileChange): vscode.Uri {
    // A large file's copy is read by VS Code's diff editor itself (read-only): never decoded here.
    if (change.before.kind === 'large' && change.before.blob) return largeCopyUri(change.before.blob, nodePath.basename(change.path));
    const before = snapshotText(change.before);
    const text = before.ok ? before.text : `ACP Native: ${viewOf(change).reason ?? before.reason}`;
    return this.deps.scratch.put(text, change.path, 'before');
  }

  private async carryOut(change: FileChange, indexes?: number[]): Promise<UndoOutcome> {
    if (this.deps.capture.view(change).wholeFile) return this.carryOutWhole(change);
    const current = currentFile(change.path, await openDocumentOf(change.path));
    // The hunks the user saw (cached while before and after stand), not computed once more.
    const plan = planUndo(change, current, indexes, this.deps.capture.view(change));
    await this.apply(change.path, plan.action);
    if (plan.action.type === 'restore' && change.beforeUnsaved !== undefined) {
      // The agent wrote over unsaved text with the user's leave: it comes back, unsaved.
      await this.waitForDocument(change.path, plan.action.text);
      await this.editDocument(change.path, change.beforeUnsaved, false);
    }
    for (const i of plan.undone) change.hunkStates[i] = 'undone';
    if (plan.conflicts.length) this.deps.log.info(`Action log: left ${plan.conflicts.length} hunk(s) of ${change.path} alone: changed after the agent`);
    return { undone: [...plan.undone], conflicts: [...plan.conflicts], ...(plan.refused ? { refused: plan.refused } : {}) };
  }

  /**
   * Undoes a whole-file change (a file larger than 2 MB): the bytes before come back, byte for
   * byte, only when the file is exactly what the agent left and has no unsaved changes.
   */
  private async carryOutWhole(change: FileChange): Promise<UndoOutcome> {
    await this.deps.capture.large.settled(change);
    const doc = await openDocumentOf(change.path);
    let current: FileFingerprint;
    try {
      const found = await fingerprintFile(change.path);
      current = found.kind === 'absent' ? found : { ...found, dirty: doc?.isDirty ?? false };
    } catch (error) {
      current = { kind: 'unreadable', reason: `unreadable (${(error as Error).message})` };
    }
    // A document may hold unsaved changes of a file deleted on disk: they are the user's too.
    if (current.kind === 'absent' && doc?.isDirty) current = { kind: 'unreadable', reason: 'deleted on disk with unsaved changes in the editor' };
    const plan = planWholeUndo(change, this.deps.capture.view(change), current);
    if (plan.refused) {
      this.deps.log.info(`Action log: no undo of ${change.path}: ${plan.refused}`);
      return { undone: [], conflicts: [], refused: plan.refused };
    }
    await this.apply(change.path, plan.action);
    for (const i of plan.undone) change.hunkStates[i] = 'undone';
    if (plan.undone.length) {
      if (this.restoringLarge) this.restoringLarge.push(change);
      else this.droppedIfSettled(change);
    }
    return { undone: [...plan.undone], conflicts: [] };
  }

  /** Puts a large copy's bytes back in the file, in place (its inode, mode and owner stay). */
  private async copyBack(path: string, blob: string): Promise<void> {
    this.deps.capture.markOwn(path);
    await fs.promises.mkdir(nodePath.dirname(path), { recursive: true });
    await fs.promises.copyFile(this.deps.capture.large.copyPath(blob), path);
  }

  private async apply(path: string, action: UndoAction): Promise<void> {
    switch (action.type) {
      case 'none':
        return;
      case 'delete':
        return this.deleteFile(path);
      case 'create': {
        this.deps.capture.markOwn(path);
        const edit = new vscode.WorkspaceEdit();
        edit.createFile(vscode.Uri.file(path), { ignoreIfExists: false, contents: action.bytes });
        if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not recreate ${fileDisplayPath(path)}.`);
        return;
      }
      case 'put':
        if ('blob' in action.from) return this.copyBack(path, action.from.blob);
        this.deps.capture.markOwn(path);
        return fs.promises.writeFile(path, action.from.bytes);
      case 'edit':
      case 'restore': {
        const doc = await openDocumentOf(path);
        if (doc?.isDirty) {
          // The user's unsaved text stays unsaved: undo edits the buffer, the user saves it.
          await this.editDocument(path, action.text, false);
          return;
        }
        const bytes = action.type === 'restore' ? action.bytes : encodeText(action.text, bomOf(path));
        if (doc && (await this.caughtUp(doc))) await this.editDocument(path, action.text, true);
        // Exactly these bytes on disk (the editor may have normalized line endings or the BOM).
        if (!sameBytes(readSnapshotSync(path), bytes)) await this.writeBytes(path, bytes);
        return;
      }
    }
  }

  /** Waits until a saved document shows what is on disk (it reloads after the agent's write). */
  private async caughtUp(doc: vscode.TextDocument): Promise<boolean> {
    const deadline = Date.now() + RELOAD_WAIT_MS;
    for (;;) {
      const disk = readSnapshotSync(doc.uri.fsPath);
      const text = disk.kind === 'bytes' ? decodeText(disk.bytes) : undefined;
      if (doc.isDirty) return false;
      if (text?.ok && text.text === doc.getText()) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /** Waits (a little) until the open document shows the restored text, so the unsaved text lands on it. */
  private async waitForDocument(path: string, text: string): Promise<void> {
    const doc = await openDocumentOf(path);
    const deadline = Date.now() + RELOAD_WAIT_MS;
    while (doc && doc.getText() !== text && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  }

  /** One undoable edit of the document: the smallest range that differs. */
  private async editDocument(path: string, text: string, save: boolean): Promise<void> {
    const doc = (await openDocumentOf(path)) ?? (await vscode.workspace.openTextDocument(vscode.Uri.file(path)));
    const old = doc.getText();
    let start = 0;
    while (start < old.length && start < text.length && old[start] === text[start]) start++;
    let end = 0;
    while (end < old.length - start && end < text.length - start && old[old.length - 1 - end] === text[text.length - 1 - end]) end++;
    if (start === old.length && start === text.length) return;
    this.deps.capture.markOwn(path);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(start), doc.positionAt(old.length - end)), text.slice(start, text.length - end));
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`The edit of ${fileDisplayPath(path)} was not applied.`);
    if (save && !(await doc.save())) throw new Error(`${fileDisplayPath(path)} could not be saved.`);
  }

  private async writeBytes(path: string, bytes: Uint8Array): Promise<void> {
    this.deps.capture.markOwn(path);
    fs.mkdirSync(nodePath.dirname(path), { recursive: true });
    await vscode.workspace.fs.writeFile(vscode.Uri.file(path), bytes);
  }

  private async deleteFile(path: string): Promise<void> {
    this.deps.capture.markOwn(path);
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(vscode.Uri.file(path), { ignoreIfNotExists: true });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not delete ${fileDisplayPath(path)}.`);
  }
}

function pendingIndexes(change: FileChange): number[] {
  return change.hunkStates.flatMap((s, i) => (s === 'pending' ? [i] : []));
}

function bomOf(path: string): boolean {
  const now = readSnapshotSync(path);
  if (now.kind !== 'bytes') return false;
  const decoded = decodeText(now.bytes);
  return decoded.ok && decoded.bom;
}

function sameBytes(snapshot: Snapshot, bytes: Uint8Array): boolean {
  return snapshot.kind === 'bytes' && snapshot.bytes.length === bytes.length && snapshot.bytes.every((b, i) => b === bytes[i]);
}
