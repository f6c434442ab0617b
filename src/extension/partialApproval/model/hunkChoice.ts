/**
 * Partial approval of a proposed edit (pure): the hunks of what the agent asks to write, the text
 * the file gets when only some of them are kept, how the agent's actual write is checked against
 * the proposal, and what the agent is told afterwards.
 *
 * The hunks are always between the file as it is now and the text the agent proposes: Claude's
 * adapter sends an overwrite as `oldText: null` with the whole new file even when the file exists,
 * and an Edit as the bare snippet, so neither side of the diff alone is the file.
 */
import { computeHunks, eolOf, splitLines, type LineHunk } from '../../review/model/actionHunks';

/** The file as the agent's question finds it: absent, its text (the editor's unsaved text when it has some), or not text we may rewrite. */
export type FileNow = { kind: 'absent' } | { kind: 'text'; text: string } | { kind: 'unreadable'; reason: string };

/** A diff of the permission request's tool call. */
export interface ProposedDiff {
  readonly path: string;
  readonly oldText?: string | null;
  readonly newText: string;
}

export interface ProposedEdit {
  readonly path: string;
  /** The file's text now ('' when it does not exist). */
  readonly before: string;
  /** The whole text the agent proposes the file should hold. */
  readonly after: string;
  /**
   * The same with the agent's own line endings, when it sent `\n` for a CRLF file (the bundled
   * agent writes new lines with the file's ending; Claude's Write writes them as sent).
   */
  readonly sent: string;
  readonly created: boolean;
  readonly hunks: readonly LineHunk[];
}

export type Proposal = { ok: true; edit: ProposedEdit } | { ok: false; reason: string };

/**
 * The proposed edit of a call's content, when it has exactly one diff and that diff can be laid
 * over the file as it is: a whole new text (`oldText` null, or the whole file), or a snippet found
 * exactly once in the file.
 */
export function proposalOf(diffs: readonly ProposedDiff[], now: FileNow): Proposal {
  if (diffs.length === 0) return { ok: false, reason: 'the question carries no diff' };
  if (diffs.length > 1) return { ok: false, reason: 'the question changes several files: allow or reject it whole' };
  const diff = diffs[0];
  if (now.kind === 'unreadable') return { ok: false, reason: `the file is ${now.reason}: allow or reject it whole` };
  const before = now.kind === 'text' ? now.text : '';
  const asSent = proposedText(before, diff, now.kind === 'absent');
  // `\n` proposed for a CRLF file would make every line a change: the hunks are of the file's endings.
  const crlf = now.kind === 'text' && eolOf(before) === '\r\n' && !diff.newText.includes('\r') && !(diff.oldText ?? '').includes('\r');
  const after = crlf ? (proposedText(before, { ...diff, newText: toCrlf(diff.newText), ...(diff.oldText ? { oldText: toCrlf(diff.oldText) } : {}) }, false) ?? asSent) : asSent;
  if (after === undefined) return { ok: false, reason: 'the text the agent replaces is not (once) in the file as it is now' };
  const sent = asSent ?? after;
  const hunks = computeHunks(before, after);
  if (hunks.length === 0) return { ok: false, reason: 'the proposed text is the file as it is' };
  return { ok: true, edit: { path: diff.path, before, after, sent, created: now.kind === 'absent', hunks } };
}

const toCrlf = (text: string): string => text.replace(/\r?\n/g, '\r\n');

/** Whether a written text is the proposal: exactly, or as the agent sent it. */
export function isProposal(edit: ProposedEdit, written: string): boolean {
  return written === edit.after || written === edit.sent;
}

function proposedText(before: string, diff: ProposedDiff, absent: boolean): string | undefined {
  const old = diff.oldText;
  if (old === null || old === undefined || old === before) return diff.newText;
  if (absent || old === '') return undefined;
  const at = before.indexOf(old);
  if (at === -1 || before.indexOf(old, at + 1) !== -1) return undefined;
  return before.slice(0, at) + diff.newText + before.slice(at + old.length);
}

/** Problems with a choice of hunks to keep, in words; undefined when it is good. */
export function keepProblem(keep: readonly number[], total: number): string | undefined {
  for (const i of keep) {
    if (!Number.isSafeInteger(i) || i < 0 || i >= total) return `hunk ${String(i)} does not exist (the edit has ${total} hunks, numbered 0 to ${total - 1})`;
  }
  return undefined;
}

/** The hunks not kept, in order. */
export function rejectedOf(keep: readonly number[], total: number): number[] {
  const kept = new Set(keep);
  return Array.from({ length: total }, (_, i) => i).filter((i) => !kept.has(i));
}

/**
 * The text of the file with only the kept hunks applied: the file before, each kept hunk's lines
 * in place of the lines it replaces. Exact: every line keeps its own terminator.
 */
export function keptText(edit: ProposedEdit, keep: readonly number[]): string {
  const kept = new Set(keep);
  const lines = splitLines(edit.before);
  const pieces: string[] = [];
  let at = 0;
  edit.hunks.forEach((hunk, i) => {
    pieces.push(lines.slice(at, hunk.oldStart).join(''));
    pieces.push((kept.has(i) ? hunk.newLines : hunk.oldLines).join(''));
    at = hunk.oldStart + hunk.oldLines.length;
  });
  pieces.push(lines.slice(at).join(''));
  return pieces.join('');
}

/**
 * The hunks of the action log's change (before its first change of the file in the turn → what the
 * agent left) that are the proposal's hunks at `indexes`: the same lines replaced by the same
 * lines at the same place of the result. Undefined when one of them is not there: then the write
 * is not what was proposed, and nothing is undone automatically.
 */
export function matchingHunks(proposed: readonly LineHunk[], logged: readonly LineHunk[], indexes: readonly number[]): number[] | undefined {
  const found: number[] = [];
  for (const i of indexes) {
    const want = proposed[i];
    if (!want) return undefined;
    const j = logged.findIndex((h) => h.newStart === want.newStart && sameLines(h.newLines, want.newLines) && sameLines(h.oldLines, want.oldLines));
    if (j === -1) return undefined;
    found.push(j);
  }
  return found;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

/** "2 of 3 hunks kept". */
export function keptSummary(kept: number, total: number): string {
  return `${kept} of ${total} hunk${total === 1 ? '' : 's'} kept`;
}

/** A hunk as the agent reads it: where it sits in its own version, and the lines as a diff. */
function hunkText(hunk: LineHunk, index: number): string {
  const where = hunk.newLines.length === 0 ? `at line ${hunk.newStart + 1}` : `lines ${hunk.newStart + 1}–${hunk.newStart + hunk.newLines.length}`;
  const body = [...hunk.oldLines.map((l) => `-${stripEol(l)}`), ...hunk.newLines.map((l) => `+${stripEol(l)}`)].join('\n');
  return `Hunk ${index + 1} (${where} of your version):\n\`\`\`diff\n${body}\n\`\`\``;
}

const stripEol = (line: string): string => line.replace(/\r?\n$/, '');

/**
 * What the agent is told after a partial approval, in words it can act on: the file, the hunks
 * kept, the hunks reverted with their text, and not to bring them back. Hunks are numbered from 1.
 */
export function partialMessage(file: string, edit: ProposedEdit, keep: readonly number[]): string {
  const rejected = rejectedOf(keep, edit.hunks.length);
  const kept = [...new Set(keep)].sort((a, b) => a - b);
  const list = (xs: number[]) => (xs.length ? xs.map((i) => i + 1).join(', ') : 'none');
  return [
    `The user approved your edit of ${file} only in part: ${keptSummary(kept.length, edit.hunks.length)}.`,
    `Kept hunks: ${list(kept)}. Reverted hunks (the file does not contain them): ${list(rejected)}.`,
    ...rejected.map((i) => hunkText(edit.hunks[i], i)),
    'Do not re-apply the reverted parts unless asked. Read the file again before editing it further.',
  ].join('\n\n');
}

/**
 * What the agent is told when the user re-applies, from Review, hunks it was told were reverted:
 * the file holds them now, as it proposed them (numbered as in the file's change, from 1).
 */
export function reappliedMessage(file: string, hunks: readonly LineHunk[], indexes: readonly number[]): string {
  return [
    `The user re-applied from Review part of your edit of ${file} that had been reverted: the file now contains it as you proposed.`,
    ...indexes.map((i) => hunkText(hunks[i] as LineHunk, i)),
    'Read the file again before editing it further.',
  ].join('\n\n');
}

/** What the agent is told when the user rejects its call with a reason. */
export function rejectMessage(what: string, reason: string): string {
  return `The user rejected "${what}". Their reason: ${oneLine(reason)}`;
}

/** A reason as one line, bounded. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 500 ? `${line.slice(0, 497)}...` : line;
}
