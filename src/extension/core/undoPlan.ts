/**
 * What undoing (some hunks of) an agent's change does to the file as it is now, and which changes
 * a checkpoint restore undoes in which order (pure). The adapter only carries the plan out.
 */
import { undoHunks } from './actionHunks';
import { snapshotText, viewOf, type FileChange, type FileChangeView } from './actionLog';

/** The file as it is now: absent, its text (the open document's when it is open), or unreadable. */
export type CurrentFile = { kind: 'absent' } | { kind: 'text'; text: string } | { kind: 'unreadable'; reason: string };

export type UndoAction =
  /** Nothing to write (already as before, or everything conflicts). */
  | { type: 'none' }
  /** Set the file's text, keeping its encoding, BOM and line endings (through the editor: undoable). */
  | { type: 'edit'; text: string }
  /** Put back exactly these bytes: every hunk is undone and nothing else changed since. */
  | { type: 'restore'; text: string; bytes: Uint8Array }
  /** Remove the file the agent created. */
  | { type: 'delete' }
  /** Recreate the file the agent deleted. */
  | { type: 'create'; bytes: Uint8Array };

export interface UndoPlan {
  readonly action: UndoAction;
  /** Hunks this plan undoes. */
  readonly undone: readonly number[];
  /** Hunks left alone: their lines changed since the agent's edit. */
  readonly conflicts: readonly number[];
  /** Why nothing can be undone (no trustworthy before text, a file that is not text…). */
  readonly refused?: string;
}

/** Plans undoing the hunks at `indexes` (all when omitted) of a change, against the file now. */
export function planUndo(change: FileChange, current: CurrentFile, indexes?: readonly number[], view: FileChangeView = viewOf(change)): UndoPlan {
  if (view.status === 'no-undo') return refuse(view.reason ?? 'no undo');
  const all = view.hunks.map((_, i) => i);
  const wanted = (indexes ?? all).filter((i) => i >= 0 && i < view.hunks.length && change.hunkStates[i] !== 'undone');
  if (wanted.length === 0) return { action: { type: 'none' }, undone: [], conflicts: [] };
  if (current.kind === 'unreadable') return refuse(`no undo: the file is ${current.reason} now`);
  const afterText = snapshotText(change.after ?? { kind: 'unknown', reason: 'not read yet' });
  if (!afterText.ok) return refuse(afterText.reason);

  if (view.created) {
    // A created file goes as a whole, and only as the agent left it.
    if (current.kind === 'absent') return { action: { type: 'none' }, undone: all, conflicts: [] };
    if (current.text !== afterText.text) return { action: { type: 'none' }, undone: [], conflicts: wanted };
    return { action: { type: 'delete' }, undone: all, conflicts: [] };
  }
  if (view.deleted) {
    if (current.kind !== 'absent') return { action: { type: 'none' }, undone: [], conflicts: wanted };
    if (change.before.kind !== 'bytes') return refuse('no undo: what the file held is not known');
    return { action: { type: 'create', bytes: change.before.bytes }, undone: all, conflicts: [] };
  }
  if (current.kind === 'absent') return { action: { type: 'none' }, undone: [], conflicts: wanted };

  const result = undoHunks(afterText.text, current.text, view.hunks, wanted);
  if (result.undone.length === 0) return { action: { type: 'none' }, undone: [], conflicts: result.conflicts };
  const beforeText = snapshotText(change.before);
  const allUndone = view.hunks.every((_, i) => change.hunkStates[i] === 'undone' || result.undone.includes(i));
  if (allUndone && beforeText.ok && change.before.kind === 'bytes' && result.text === beforeText.text) {
    return { action: { type: 'restore', text: result.text, bytes: change.before.bytes }, undone: result.undone, conflicts: result.conflicts };
  }
  return { action: { type: 'edit', text: result.text }, undone: result.undone, conflicts: result.conflicts };
}

function refuse(reason: string): UndoPlan {
  return { action: { type: 'none' }, undone: [], conflicts: [], refused: reason };
}

/**
 * The changes "Restore to before this prompt" undoes: every change of that turn and the turns
 * after it that is not undone yet, newest first, so each file walks back through its turns.
 */
export function planRestore(changes: readonly FileChange[], turn: number): FileChange[] {
  return changes
    .filter((c) => c.turn >= turn && !(c.hunkStates.length > 0 && c.hunkStates.every((s) => s === 'undone')))
    .sort((a, b) => b.id - a.id);
}

/** The files a restore touches, in the order they were first changed. */
export function restoreFiles(plan: readonly FileChange[]): string[] {
  return [...new Set([...plan].sort((a, b) => a.id - b.id).map((c) => c.path))];
}
