/**
 * The agent's change of one file as hunks, and undoing some of them against the file as it is now
 * (pure). Texts are compared line by line with each line's own terminator, so undoing restores the
 * exact characters (CRLF, a missing final newline) the agent replaced; bytes (BOM, encoding) are
 * the caller's, through `decodeText`/`encodeText`.
 *
 * "The user's later edits win": undoing a hunk touches only lines that still stand as the agent
 * left them. Where the user (or a later turn) changed those lines, the hunk is a conflict and is
 * left alone.
 */
import { diffArrays } from 'diff';
import { commonPrefixLength, commonSuffixLength, decodeFileBytes, dominantEol, encodeFileText } from '../../workspace/model/fileText';

export interface LineHunk {
  /** 0-based first line of the hunk in the text before the agent. */
  readonly oldStart: number;
  /** The lines before the agent (terminators included). */
  readonly oldLines: readonly string[];
  /** 0-based first line of the hunk in the text the agent produced. */
  readonly newStart: number;
  /** The lines the agent produced (terminators included). */
  readonly newLines: readonly string[];
}

export type DecodedText = { ok: true; text: string; bom: boolean } | { ok: false; reason: string };

/** A file's bytes as text (exact: line endings kept), or in words why they are not text we may rewrite. */
export function decodeText(bytes: Uint8Array): DecodedText {
  const decoded = decodeFileBytes(bytes);
  if (decoded.ok) return decoded;
  switch (decoded.reason) {
    case 'binary':
      return { ok: false, reason: 'a binary file' };
    case 'utf16':
      return { ok: false, reason: 'UTF-16 text, not UTF-8' };
    case 'not-utf8':
      return { ok: false, reason: 'not UTF-8 text' };
  }
}

export { encodeFileText as encodeText, dominantEol as eolOf };

/** The text's lines, each with its own terminator (`\n` or `\r\n`); the last may have none. */
export function splitLines(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** Line edits turning `from` into `to`: each replaces `count` lines at `start` of `from` by `lines`. */
interface LineEdit {
  readonly start: number;
  readonly count: number;
  readonly lines: readonly string[];
  /** Where the replacement starts in `to`. */
  readonly toStart: number;
}

/**
 * Bounds the diff's work: past this many differing lines (a whole file rewritten), the differing
 * middle is one edit. A finer diff of a rewrite is worth nothing, and the Myers diff would take
 * seconds on the extension host's only thread.
 */
const MAX_EDIT_LENGTH = 1000;

function lineEdits(from: readonly string[], to: readonly string[]): LineEdit[] {
  // The common head and tail cost nothing to skip and are most of the file in most edits.
  let head = 0;
  while (head < from.length && head < to.length && from[head] === to[head]) head++;
  let tail = 0;
  while (tail < from.length - head && tail < to.length - head && from[from.length - 1 - tail] === to[to.length - 1 - tail]) tail++;
  const a = from.slice(head, from.length - tail);
  const b = to.slice(head, to.length - tail);
  if (a.length === 0 && b.length === 0) return [];
  const parts = a.length && b.length && !editLengthExceeds(a, b, MAX_EDIT_LENGTH) ? diffArrays(a, b, { maxEditLength: MAX_EDIT_LENGTH }) : undefined;
  if (!parts) return [{ start: head, count: a.length, lines: b, toStart: head }];
  return editsOf(parts, head);
}

/**
 * Whether turning `a` into `b` takes more than `max` lines inserted plus removed: exactly when
 * `diffArrays` with that `maxEditLength` gives up. Myers's greedy search over one array of ints,
 * with no paths kept: a whole-file rewrite is told in ~max²/2 steps of a few ns (~5 ms) where the
 * library's search, which builds the edit script as it goes, takes 80–100 ms to the same answer.
 */
export function editLengthExceeds(a: readonly string[], b: readonly string[], max: number): boolean {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return true;
  const offset = max + 1;
  // Furthest x reached on each diagonal k = x - y.
  const furthest = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && furthest[offset + k - 1] < furthest[offset + k + 1]);
      let x = down ? furthest[offset + k + 1] : furthest[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      furthest[offset + k] = x;
      if (x >= n && y >= m) return false;
    }
  }
  return true;
}

function editsOf(parts: { value: string[]; added?: boolean; removed?: boolean }[], offset: number): LineEdit[] {
  const edits: LineEdit[] = [];
  let a = offset;
  let b = offset;
  let open: { start: number; count: number; lines: string[]; toStart: number } | undefined;
  for (const part of parts) {
    const n = part.value.length;
    if (!part.added && !part.removed) {
      if (open) edits.push(open);
      open = undefined;
      a += n;
      b += n;
      continue;
    }
    open ??= { start: a, count: 0, lines: [], toStart: b };
    if (part.removed) {
      open.count += n;
      a += n;
    } else {
      open.lines.push(...part.value);
      b += n;
    }
  }
  if (open) edits.push(open);
  return edits;
}

/** Where a line starts: at 0 or after a `\n`. */
const startsLine = (text: string, at: number): boolean => at === 0 || text.charCodeAt(at - 1) === 0x0a;

function countNewlines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/**
 * `lineEdits` of two texts, the same edits, without splitting all of them into lines: the common
 * head and tail of whole lines are found on the strings (native compares) and only the middle is
 * split. A one-line edit of a 10 MB file costs a few ms instead of two arrays of 150,000 lines.
 * `fromMiddle` holds `from`'s lines from line `head` on, through the last edited one.
 */
function textLineEdits(from: string, to: string): { edits: LineEdit[]; head: number; fromMiddle: string[] } {
  const headChars = from.lastIndexOf('\n', commonPrefixLength(from, to) - 1) + 1;
  const suffix = commonSuffixLength(from, to, Math.min(from.length, to.length) - headChars);
  let tailChars = suffix;
  if (!startsLine(from, from.length - suffix) || !startsLine(to, to.length - suffix)) {
    // Inside the common suffix, a line that starts in one text starts in the other.
    const newline = from.indexOf('\n', from.length - suffix);
    tailChars = newline === -1 ? 0 : from.length - newline - 1;
  }
  const head = countNewlines(from, headChars);
  const fromMiddle = splitLines(from.slice(headChars, from.length - tailChars));
  const edits = lineEdits(fromMiddle, splitLines(to.slice(headChars, to.length - tailChars))).map((e) => ({ ...e, start: e.start + head, toStart: e.toStart + head }));
  return { edits, head, fromMiddle };
}

/** The agent's change as hunks of whole lines, without context, in file order. */
export function computeHunks(before: string, after: string): LineHunk[] {
  const { edits, head, fromMiddle } = textLineEdits(before, after);
  return edits.map((e) => ({
    oldStart: e.start,
    oldLines: fromMiddle.slice(e.start - head, e.start - head + e.count),
    newStart: e.toStart,
    newLines: e.lines,
  }));
}

export function countLines(hunks: readonly LineHunk[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const h of hunks) {
    added += h.newLines.length;
    removed += h.oldLines.length;
  }
  return { added, removed };
}

/** Where a hunk of the agent's text stands in the current text, or why it no longer does. */
export type HunkPlace = { ok: true; start: number; count: number } | { ok: false; reason: 'conflict' };

/**
 * Finds each hunk's lines in `current`: the agent's lines that nobody changed since. A hunk whose
 * lines were edited (or had lines inserted among them) is a conflict.
 */
export function placeHunks(after: string, current: string, hunks: readonly LineHunk[]): HunkPlace[] {
  const { edits: since } = textLineEdits(after, current);
  return hunks.map((hunk) => {
    const start = hunk.newStart;
    const end = hunk.newStart + hunk.newLines.length;
    let shift = 0;
    for (const edit of since) {
      const editEnd = edit.start + edit.count;
      const touches =
        edit.count === 0
          ? // An insertion conflicts only strictly inside the hunk, or into an emptied (pure deletion) spot.
            (edit.start > start && edit.start < end) || (start === end && edit.start === start)
          : edit.start < end && editEnd > start;
      if (touches) return { ok: false, reason: 'conflict' };
      if (editEnd <= start && !(edit.count === 0 && edit.start === start && start === end)) shift += edit.lines.length - edit.count;
    }
    return { ok: true, start: start + shift, count: end - start };
  });
}

export interface UndoResult {
  /** The current text with the undoable hunks put back as they were before the agent. */
  readonly text: string;
  /** Indexes of the hunks undone. */
  readonly undone: readonly number[];
  /** Indexes of the hunks left alone because their lines changed since the agent's edit. */
  readonly conflicts: readonly number[];
}

/** Undoes the hunks at `indexes` in `current`, leaving conflicting ones (and the user's edits) alone. */
export function undoHunks(after: string, current: string, hunks: readonly LineHunk[], indexes: readonly number[]): UndoResult {
  const places = placeHunks(after, current, hunks);
  const lines = splitLines(current);
  const undone: number[] = [];
  const conflicts: number[] = [];
  // From the end, so earlier line numbers stay valid. The text is built from slices, never by
  // splicing a hunk's lines in as arguments: a rewrite of 130,000 lines overflows the call stack.
  const pieces: string[] = [];
  let kept = lines.length;
  let linesAfter = 0;
  for (const index of [...new Set(indexes)].sort((x, y) => y - x)) {
    const hunk = hunks[index];
    const place = places[index];
    if (!hunk || !place) continue;
    if (!place.ok) {
      conflicts.push(index);
      continue;
    }
    const end = place.start + place.count;
    pieces.push(lines.slice(end, kept).join(''));
    linesAfter += kept - end;
    const old = fitLastLine(hunk.oldLines, linesAfter > 0);
    pieces.push(old.join(''));
    linesAfter += old.length;
    kept = place.start;
    undone.push(index);
  }
  pieces.push(lines.slice(0, kept).join(''));
  return { text: pieces.reverse().join(''), undone: undone.reverse(), conflicts: conflicts.reverse() };
}

/**
 * The old lines to put back. Lines keep the terminators they had, except that a line which was the
 * last of the old file (no terminator) now followed by more lines needs one to stay a line.
 */
function fitLastLine(oldLines: readonly string[], linesFollow: boolean): readonly string[] {
  const last = oldLines.at(-1);
  if (last === undefined || last.endsWith('\n') || !linesFollow) return oldLines;
  const out = oldLines.slice();
  out[out.length - 1] = last + '\n';
  return out;
}

export interface ReapplyResult {
  /** The current text with the re-applied hunks as the agent wrote them. */
  readonly text: string;
  /** Indexes of the hunks re-applied. */
  readonly reapplied: readonly number[];
  /** Indexes of the hunks left alone: the lines put back by their undo changed since. */
  readonly conflicts: readonly number[];
}

/**
 * The text the undos left (`after` with every undone hunk's old lines put back), and there each
 * undone hunk as an edit from its old lines to the agent's: the reverse hunks, in file order,
 * with the index of the hunk each reverses.
 */
function undoneLayout(after: string, hunks: readonly LineHunk[], undone: ReadonlySet<number>): { text: string; reversed: LineHunk[]; indexes: number[] } {
  const text = undoHunks(after, after, hunks, [...undone]).text;
  const lines = splitLines(text);
  const reversed: LineHunk[] = [];
  const indexes: number[] = [];
  // Each undone hunk's old lines stand where the agent's were, moved by the undone hunks above it.
  let shift = 0;
  hunks.forEach((hunk, index) => {
    if (!undone.has(index)) return;
    const start = hunk.newStart + shift;
    reversed.push({ oldStart: hunk.newStart, oldLines: hunk.newLines, newStart: start, newLines: lines.slice(start, start + hunk.oldLines.length) });
    indexes.push(index);
    shift += hunk.oldLines.length - hunk.newLines.length;
  });
  return { text, reversed, indexes };
}

/** Where each undone hunk's restored lines stand in `current` (by hunk index), or that the user changed them since. */
export function placeUndone(after: string, current: string, hunks: readonly LineHunk[], undone: readonly number[]): Map<number, HunkPlace> {
  const layout = undoneLayout(after, hunks, new Set(undone));
  const places = placeHunks(layout.text, current, layout.reversed);
  return new Map(layout.indexes.map((index, k) => [index, places[k] as HunkPlace]));
}

/**
 * Re-applies hunks that were undone (`undone` holds every undone hunk's index, `indexes` those to
 * re-apply): the undo taken back. In the text the undos left, each undone hunk is an edit from
 * its old lines to the agent's, and undoing that edit against `current` is the re-apply, with an
 * undo's rule: a hunk whose lines changed since (the user edited what the undo put back) is a
 * conflict, left alone.
 */
export function reapplyHunks(after: string, current: string, hunks: readonly LineHunk[], undone: readonly number[], indexes: readonly number[]): ReapplyResult {
  const layout = undoneLayout(after, hunks, new Set(undone));
  const wanted = indexes.map((i) => layout.indexes.indexOf(i)).filter((k) => k !== -1);
  const result = undoHunks(layout.text, current, layout.reversed, wanted);
  const indexOf = (k: number): number => layout.indexes[k] as number;
  return { text: result.text, reapplied: result.undone.map(indexOf), conflicts: result.conflicts.map(indexOf) };
}
