import * as vscode from 'vscode';
import type { Probes } from '../base/probes';
import { placeHunks, placeUndone, type HunkPlace, type LineHunk } from './model/actionHunks';
import { snapshotText, type FileChange } from './model/actionLog';
import { lensesMayChange } from './model/lensRefresh';
import type { ActionLogCapture } from './actionLogCapture';
import { Disposable } from '../base/lifecycle';

export const KEEP_HUNK_COMMAND = 'acpNative.actionLog.keepHunk';
export const UNDO_HUNK_COMMAND = 'acpNative.actionLog.undoHunk';
export const REAPPLY_HUNK_COMMAND = 'acpNative.actionLog.reapplyHunk';
const REAPPLY_COMMAND = 'acpNative.review.reapply';
/** Changes of the log this close together refresh the lenses once. */
const LENS_REFRESH_MS = 50;

/**
 * Keep and Undo over each of the agent's hunks, in the real file — so also on the editable side of
 * the diff editors. A hunk whose lines the user changed since says so instead of offering Undo.
 * An undone hunk offers Re-apply while its change is still reviewed (hunks pending, or its turn
 * the session's latest): Undo can be taken back.
 */
export class HunkLenses extends Disposable implements vscode.CodeLensProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.changeEmitter.event;
  /** Files whose editor was last given lenses (not none). */
  private readonly shownLenses = new Set<string>();

  constructor(
    private readonly deps: {
      capture: ActionLogCapture;
      /** The session whose changes a file's lenses show first. */
      activeSessionId: () => string | undefined;
      /** Coalesced log changes looked at, and those that told the window to ask again. */
      probes: Probes;
    },
  ) {
    super();
    const { capture, probes } = deps;
    // Coalesced, and only for editors on screen: the log changes with every file of every tool call,
    // and each fire is a message to the window, which asks every visible editor's lenses again.
    let timer: NodeJS.Timeout | undefined;
    this._register(
      capture.onDidChange(() => {
        timer ??= setTimeout(() => {
          timer = undefined;
          probes.count('lenses.checks');
          const visible = vscode.window.visibleTextEditors.filter((e) => e.document.uri.scheme === 'file').map((e) => e.document.uri.fsPath);
          if (!lensesMayChange(visible, this.shownLenses, (path) => this.changeOf(path) !== undefined)) return;
          probes.count('lenses.refreshes');
          this.changeEmitter.fire();
        }, LENS_REFRESH_MS);
      }),
    );
    this._register({ dispose: () => clearTimeout(timer) });
    this._register(vscode.workspace.onDidCloseTextDocument((doc) => this.shownLenses.delete(doc.uri.fsPath)));
    this._register(vscode.languages.registerCodeLensProvider({ scheme: 'file' }, this));
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    const lenses = this.lensesOf(doc);
    if (lenses.length > 0) this.shownLenses.add(doc.uri.fsPath);
    else this.shownLenses.delete(doc.uri.fsPath);
    return lenses;
  }

  /** The agent's hunks still to review in a document, where the lenses put them (top to bottom). */
  pendingHunks(doc: vscode.TextDocument): { line: number; sessionId: string; changeId: number; index: number }[] {
    return this.lensesOf(doc)
      .filter((lens) => lens.command?.command === KEEP_HUNK_COMMAND)
      .map((lens) => {
        const [sessionId, changeId, index] = lens.command?.arguments as [string, number, number];
        return { line: lens.range.start.line, sessionId, changeId, index };
      })
      .sort((a, b) => a.line - b.line);
  }

  private lensesOf(doc: vscode.TextDocument): vscode.CodeLens[] {
    const found = this.changeOf(doc.uri.fsPath);
    if (!found) return [];
    const { sessionId, change } = found;
    const view = this.deps.capture.view(change);
    const after = snapshotText(change.after ?? { kind: 'unknown', reason: '' });
    if (!after.ok || view.status === 'no-undo') return [];
    const places = placeHunks(after.text, doc.getText(), view.hunks);
    const lenses: vscode.CodeLens[] = [];
    const pending = change.hunkStates.filter((s) => s === 'pending').length;
    const top = new vscode.Range(0, 0, 0, 0);
    const undone = change.hunkStates.flatMap((state, index) => (state === 'undone' ? [index] : []));
    const target = { sessionId, changeId: change.id };
    lenses.push(new vscode.CodeLens(top, { title: `Agent change, prompt ${change.turn + 1}: ${pending} of ${view.hunks.length} hunks to review${undone.length ? `, ${undone.length} undone` : ''}`, command: '' }));
    if (pending > 0) {
      lenses.push(
        new vscode.CodeLens(top, { title: 'Keep All', command: 'acpNative.review.keep', arguments: [target] }),
        new vscode.CodeLens(top, { title: 'Undo All', command: 'acpNative.review.undo', arguments: [target] }),
      );
    }
    if (undone.length > 1) lenses.push(new vscode.CodeLens(top, { title: 'Re-apply All Undone', command: REAPPLY_COMMAND, arguments: [target] }));
    const undonePlaces = undone.length > 0 ? placeUndone(after.text, doc.getText(), view.hunks, undone) : undefined;
    view.hunks.forEach((hunk, index) => {
      const undonePlace = undonePlaces?.get(index);
      if (undonePlace) {
        const range = lensRange(doc, undonePlace, hunk);
        lenses.push(
          undonePlace.ok
            ? new vscode.CodeLens(range, { title: `Undone agent hunk +${hunk.newLines.length} −${hunk.oldLines.length}: Re-apply`, command: REAPPLY_HUNK_COMMAND, arguments: [sessionId, change.id, index] })
            : new vscode.CodeLens(range, { title: 'Undone agent hunk: edited since, not re-applied', command: '' }),
        );
        return;
      }
      if (change.hunkStates[index] !== 'pending') return;
      const place = places[index];
      const range = lensRange(doc, place, hunk);
      const counts = `+${hunk.newLines.length} −${hunk.oldLines.length}`;
      if (!place.ok) {
        lenses.push(new vscode.CodeLens(range, { title: `Agent hunk ${counts}: edited since, Undo leaves it alone`, command: '' }));
        return;
      }
      lenses.push(
        new vscode.CodeLens(range, { title: `Keep ${counts}`, command: KEEP_HUNK_COMMAND, arguments: [sessionId, change.id, index] }),
        new vscode.CodeLens(range, { title: 'Undo', command: UNDO_HUNK_COMMAND, arguments: [sessionId, change.id, index] }),
      );
    });
    return lenses;
  }

  /**
   * The latest change of the file still reviewed, the active session's first: with hunks to
   * review, or with hunks undone in the session's latest turn (they may be re-applied).
   */
  private changeOf(path: string): { sessionId: string; change: FileChange } | undefined {
    const log = this.deps.capture.log;
    const active = this.deps.activeSessionId();
    const ids = [...(active ? [active] : []), ...log.sessionIds().filter((id) => id !== active)];
    for (const sessionId of ids) {
      const change = log.latestOf(sessionId, path);
      if (!change?.after) continue;
      if (change.hunkStates.includes('pending')) return { sessionId, change };
      if (change.turn === log.currentTurn(sessionId) && change.hunkStates.includes('undone')) return { sessionId, change };
    }
    return undefined;
  }
}

/** Where a hunk's lens goes: where its lines stand, else where the agent put them (within the document). */
function lensRange(doc: vscode.TextDocument, place: HunkPlace, hunk: LineHunk): vscode.Range {
  const line = Math.min(place.ok ? place.start : hunk.newStart, Math.max(0, doc.lineCount - 1));
  return new vscode.Range(line, 0, line, 0);
}
