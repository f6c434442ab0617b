/**
 * What undoing (some hunks of) an agent's change does to the file as it is now, and which changes
 * a checkpoint restore undoes in which order (pure). The adapter only carries the plan out.
 */
import { createHash } from 'node:crypto';
import { reapplyHunks, undoHunks } from './actionHunks';
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
  | { type: 'create'; bytes: Uint8Array }
  /** Put back a large file's bytes as they were, whole: a byte copy of its copy in storage, or these bytes. */
  | { type: 'put'; from: { blob: string } | { bytes: Uint8Array } };

export interface UndoPlan {
  readonly action: UndoAction;
  /** Hunks this plan undoes. */
  readonly undone: readonly number[];
  /** Hunks left alone: their lines changed since the agent's edit. */
  readonly conflicts: readonly number[];
  /** Why nothing can be undone (no trustworthy before text, a file that is not text…). */
  readonly refused?: string;
}

/**
 * A file as a whole-file undo checks it: its size and hash (read off the event loop), absent, or
 * not checkable; `dirty` when its editor holds unsaved changes.
 */
export type FileFingerprint = { kind: 'absent' } | { kind: 'file'; size: number; sha256: string; dirty: boolean } | { kind: 'unreadable'; reason: string };

/**
 * Plans undoing a whole-file change (a file larger than 2 MB on one side): the bytes before come
 * back only when the file is exactly what the agent left (same size and hash) and has no unsaved
 * changes; otherwise nothing is written and the user is told why. There are no hunks to merge.
 */
export function planWholeUndo(change: FileChange, view: FileChangeView, current: FileFingerprint): UndoPlan {
  if (view.status === 'no-undo') return refuse(view.reason ?? 'no undo');
  if (change.hunkStates[0] === 'undone') return { action: { type: 'none' }, undone: [], conflicts: [] };
  if (current.kind === 'unreadable') return refuse(`no undo: the file is ${current.reason} now`);
  if (current.kind === 'file' && current.dirty) return refuse('it has unsaved changes in the editor: save or revert them, then Undo again');
  const after = change.after;
  if (!after) return refuse('the agent is still changing it');
  switch (after.kind) {
    case 'absent':
      if (current.kind !== 'absent') return refuse(CHANGED_SINCE);
      break;
    case 'bytes':
      if (current.kind !== 'file' || current.size !== after.bytes.length || current.sha256 !== createHash('sha256').update(after.bytes).digest('hex')) return refuse(CHANGED_SINCE);
      break;
    case 'large':
      if (after.sha256 === undefined) return refuse(`no undo: what the agent left could not be checked (${after.unreliable ?? 'not read yet'})`);
      if (current.kind !== 'file' || current.size !== after.size || current.sha256 !== after.sha256) return refuse(CHANGED_SINCE);
      break;
    case 'unknown':
      return refuse(`no undo: ${after.reason}`);
  }
  const before = change.before;
  switch (before.kind) {
    case 'absent':
      return { action: { type: 'delete' }, undone: [0], conflicts: [] };
    case 'bytes':
      return { action: { type: 'put', from: { bytes: before.bytes } }, undone: [0], conflicts: [] };
    case 'large':
      if (before.blob === undefined) return refuse(`no undo: ${before.unreliable ?? 'its copy before is gone'}`);
      return { action: { type: 'put', from: { blob: before.blob } }, undone: [0], conflicts: [] };
    case 'unknown':
      return refuse(`no undo: ${before.reason}`);
  }
}

const CHANGED_SINCE = 'it changed since the agent wrote it: Undo would overwrite those changes, so the file was left alone';

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

export interface ReapplyPlan {
  /** What to write: the file with the hunks re-applied (`edit`), the created file again (`create`), or the deleted one gone (`delete`). */
  readonly action: Extract<UndoAction, { type: 'none' | 'edit' | 'create' | 'delete' }>;
  /** Hunks this plan re-applies. */
  readonly reapplied: readonly number[];
  /** Hunks left alone: the lines their undo put back changed since. */
  readonly conflicts: readonly number[];
  /** Why nothing can be re-applied. */
  readonly refused?: string;
}

/**
 * Plans re-applying undone hunks at `indexes` (all undone ones when omitted): Undo taken back,
 * against the file now, with Undo's rule that the user's later edits win. A file over 2 MB is
 * never re-applied (what the agent left is not kept, only its hash).
 */
export function planReapply(change: FileChange, current: CurrentFile, indexes?: readonly number[], view: FileChangeView = viewOf(change)): ReapplyPlan {
  const none = (refused?: string): ReapplyPlan => ({ action: { type: 'none' }, reapplied: [], conflicts: [], ...(refused ? { refused } : {}) });
  if (view.status === 'no-undo') return none(view.reason ?? 'no undo');
  if (view.wholeFile) return none('a file over 2 MB is undone as a whole and not re-applied: what the agent wrote is not kept');
  const undone = change.hunkStates.flatMap((s, i) => (s === 'undone' ? [i] : []));
  const wanted = (indexes ?? undone).filter((i) => undone.includes(i));
  if (wanted.length === 0) return none();
  if (current.kind === 'unreadable') return none(`the file is ${current.reason} now`);
  const after = change.after;
  const afterText = snapshotText(after ?? { kind: 'unknown', reason: 'not read yet' });
  if (!after || !afterText.ok) return none(afterText.ok ? 'the agent is still changing it' : afterText.reason);
  const all = view.hunks.map((_, i) => i);
  if (view.created) {
    // The undo deleted the file: it comes back as the agent wrote it, unless something stands there now.
    if (current.kind !== 'absent' || after.kind !== 'bytes') return { ...none(), conflicts: wanted };
    return { action: { type: 'create', bytes: after.bytes }, reapplied: all, conflicts: [] };
  }
  if (view.deleted) {
    const beforeText = snapshotText(change.before);
    if (current.kind !== 'text' || !beforeText.ok || current.text !== beforeText.text) return { ...none(), conflicts: wanted };
    return { action: { type: 'delete' }, reapplied: all, conflicts: [] };
  }
  if (current.kind === 'absent') return { ...none(), conflicts: wanted };
  const result = reapplyHunks(afterText.text, current.text, view.hunks, undone, wanted);
  if (result.reapplied.length === 0) return { ...none(), conflicts: [...result.conflicts] };
  return { action: { type: 'edit', text: result.text }, reapplied: result.reapplied, conflicts: result.conflicts };
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

/**
 * Of the files the user changed since a prompt (the checkpoints say), those a restore still
 * merges per hunk: the agent's hunks taken back, the user's kept, a hunk both changed left alone
 * as a conflict. Only a change the agent itself reported (an `fs` write, a tool call's edit) and
 * that can be undone: a command's change seen by the watcher may hold an edit the user saved
 * right after the command (the watcher cannot tell them apart), so such a file stays whole.
 */
export function mergedPerHunk(plan: readonly FileChange[], userChanged: Iterable<string>, undoable: (change: FileChange) => boolean): Set<string> {
  const theirs = new Set(userChanged);
  const byPath = new Map<string, FileChange[]>();
  for (const c of plan) if (theirs.has(c.path)) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c]);
  const merged = new Set<string>();
  for (const [path, changes] of byPath) if (changes.every((c) => c.source !== 'watcher' && undoable(c))) merged.add(path);
  return merged;
}
