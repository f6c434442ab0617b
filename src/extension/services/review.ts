import * as vscode from 'vscode';
import { ReviewLog, type FileChange, type FileSnapshot, type TurnChanges } from '../core/review';
import { normalizeEol } from '../core/fileText';
import type { Logger } from '../log';
import { fileDisplayPath } from '../titles';
import { Disposable } from '../util/lifecycle';
import type { ScratchDocuments } from './scratchDocuments';
import { displayTextOf, openDocumentOf } from './workspaceText';

const RELOAD_WAIT_MS = 3000;

/**
 * Review of the agent's edits: every file written through `fs/write_text_file` in a turn, shown
 * together in the multi-diff editor (before ↔ now), each kept or undone. Undo restores exactly
 * what was there: the bytes on disk, and the unsaved text when the editor had some.
 */
export class ReviewService extends Disposable {
  private readonly changes = new ReviewLog();
  private readonly changeEmitter = this._register(new vscode.EventEmitter<string>());
  /** Fires with the session id whose changes changed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly deps: { scratch: ScratchDocuments; log: Logger }) {
    super();
  }

  beginTurn(sessionId: string): void {
    this.changes.beginTurn(sessionId);
    this.changeEmitter.fire(sessionId);
  }

  /** Whether a write of this file needs a snapshot first: only the turn's first write does. */
  needsSnapshot(sessionId: string, path: string): boolean {
    return !this.changes.has(sessionId, path);
  }

  /**
   * Records a write that happened (never one that was refused or failed: there is nothing to
   * review then), with what was there before when it is the turn's first write of the file.
   */
  recordWrite(sessionId: string, path: string, snapshot: FileSnapshot | undefined): void {
    this.changes.recordWrite(sessionId, path, snapshot ?? { existed: true });
    this.changeEmitter.fire(sessionId);
  }

  latest(sessionId: string): TurnChanges | undefined {
    return this.changes.latest(sessionId);
  }

  /** Opens the turn's changes in the multi-diff editor: before (snapshot) ↔ the file now. */
  async open(sessionId: string): Promise<void> {
    const turn = this.changes.latest(sessionId);
    if (!turn) {
      void vscode.window.showInformationMessage('The agent has not changed any file through the editor in this session yet.');
      return;
    }
    const entries = turn.files.map((change) => {
      const uri = vscode.Uri.file(change.path);
      const before = this.deps.scratch.put(textOf(change.before), change.path, 'before');
      return [uri, before, uri] as const;
    });
    const title = `Agent changes (${turn.files.length} ${turn.files.length === 1 ? 'file' : 'files'})`;
    await vscode.commands.executeCommand('vscode.changes', title, entries);
  }

  /** Opens one file's change: before ↔ the file now. */
  async openFile(sessionId: string, path: string): Promise<void> {
    const change = this.changes.find(sessionId, path);
    if (!change) throw new Error(`There is no change of ${fileDisplayPath(path)} to review.`);
    const before = this.deps.scratch.put(textOf(change.before), path, 'before');
    await vscode.commands.executeCommand('vscode.diff', before, vscode.Uri.file(path), `${fileDisplayPath(path)} (before ↔ agent)`);
  }

  keep(sessionId: string, path: string): boolean {
    const change = this.changes.find(sessionId, path);
    if (!change || change.status !== 'pending') return false;
    change.status = 'kept';
    this.changeEmitter.fire(sessionId);
    return true;
  }

  /** Puts back exactly what was there before the agent's first write of the turn. */
  async undo(sessionId: string, path: string): Promise<void> {
    const change = this.changes.find(sessionId, path);
    if (!change || change.status === 'undone') throw new Error(`There is no change of ${fileDisplayPath(path)} to undo.`);
    const uri = vscode.Uri.file(path);
    const open = await openDocumentOf(path);
    if (open?.isDirty) {
      throw new Error(`${fileDisplayPath(path)} has unsaved changes made after the agent's; save or revert them before undoing.`);
    }
    await restore(uri, change);
    change.status = 'undone';
    this.deps.log.info(`Review: undid the agent's change of ${path}`);
    this.changeEmitter.fire(sessionId);
  }
}

async function restore(uri: vscode.Uri, change: FileChange): Promise<void> {
  const { before } = change;
  if (!before.existed) {
    const edit = new vscode.WorkspaceEdit();
    edit.deleteFile(uri, { ignoreIfNotExists: true });
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not delete ${uri.fsPath}.`);
  } else if (before.bytes) {
    await vscode.workspace.fs.writeFile(uri, before.bytes);
  }
  if (before.unsavedText === undefined) return;
  // The editor had unsaved text: once the document shows the restored file, put that text back
  // as an unsaved edit, so the buffer is exactly as the user left it.
  // The document the user has, under whatever spelling it was opened.
  const doc = (await openDocumentOf(uri.fsPath)) ?? (await vscode.workspace.openTextDocument(uri));
  const onDisk = normalizeEol(textOf(before));
  const deadline = Date.now() + RELOAD_WAIT_MS;
  while (normalizeEol(doc.getText()) !== onDisk && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), before.unsavedText);
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not restore the unsaved text of ${uri.fsPath}.`);
}

function textOf(snapshot: FileSnapshot): string {
  return displayTextOf(snapshot.bytes);
}
