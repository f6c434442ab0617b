/**
 * Which files a tool call edits, and what they held before it when the edit was already on disk
 * by the time we looked (pure). Agents such as Claude's adapter write files themselves and only
 * tell us with `diff` content and locations; the client reads each file the first time a call
 * names it, and falls back on these reconstructions only when the agent's write beat that read.
 */
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { revertHunks } from '../../cards/diff/model/hunkPlacement';
import type { ReportedOriginal } from '../../session/model/agentMeta';

/** Kinds whose locations are files the call changes. */
const EDITING_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>(['edit', 'delete', 'move']);

/** Kinds during which a file changing on disk is the agent's doing (a command, a formatter). */
const QUIET_KINDS: ReadonlySet<ToolKind> = new Set<ToolKind>(['read', 'search', 'think', 'fetch', 'switch_mode']);

export function isEditingKind(kind: ToolKind | undefined): boolean {
  return kind !== undefined && EDITING_KINDS.has(kind);
}

/** Whether files that change on disk while such a call runs are taken as changed by it. */
export function mayChangeFiles(kind: ToolKind | undefined): boolean {
  return kind === undefined || !QUIET_KINDS.has(kind);
}

export interface CallView {
  readonly kind: ToolKind | undefined;
  readonly content: readonly ToolCallContent[];
  readonly locations: readonly ToolCallLocation[];
}

/** The absolute paths a call edits: its diffs' paths, and its locations for edit/delete/move kinds. */
export function editTargets(call: CallView): string[] {
  const paths = new Set<string>();
  for (const item of call.content) if (item.type === 'diff' && isAbsolute(item.path)) paths.add(item.path);
  if (isEditingKind(call.kind)) for (const loc of call.locations) if (isAbsolute(loc.path)) paths.add(loc.path);
  return [...paths];
}

function isAbsolute(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

/** What a file held before the call, as far as the call's own report can tell. */
export type ReportedBefore =
  | { kind: 'text'; text: string; how: string }
  | { kind: 'absent'; how: string }
  | { kind: 'unknown'; reason: string };

/**
 * The file's text before the call, from the call's report and the file's (LF) text after it:
 * the agent's own copy of the original (see `session/model/agentMeta.ts`), a whole-file diff's
 * `oldText`, or the applied hunks reverted in the file. Never a guess: a new-file diff
 * (`oldText: null`) is not trusted to mean "created", since Claude's Write sends it when
 * overwriting too.
 */
export function reportedBefore(path: string, content: readonly ToolCallContent[], original: ReportedOriginal | undefined, afterText: string | undefined): ReportedBefore {
  if (original?.path === path) {
    return original.text === null ? { kind: 'absent', how: "the agent's report of a new file" } : { kind: 'text', text: original.text, how: "the agent's copy of the original" };
  }
  const diffs = content.filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff' && c.path === path);
  if (diffs.length === 0) return { kind: 'unknown', reason: 'the agent reported no diff of it' };
  if (afterText === undefined) return { kind: 'unknown', reason: 'it cannot be read as text now' };
  if (diffs.length === 1 && diffs[0].newText.replace(/\r\n/g, '\n') === afterText) {
    const old = diffs[0].oldText;
    if (typeof old === 'string') return { kind: 'text', text: old.replace(/\r\n/g, '\n'), how: "the agent's whole-file diff" };
    return { kind: 'unknown', reason: 'the agent wrote it whole without saying what it held before' };
  }
  if (diffs.some((d) => d.oldText == null)) return { kind: 'unknown', reason: 'the agent wrote it whole without saying what it held before' };
  const reverted = revertHunks(afterText, diffs.map((d) => ({ oldText: (d.oldText ?? '').replace(/\r\n/g, '\n'), newText: d.newText.replace(/\r\n/g, '\n') })));
  if (reverted === undefined) return { kind: 'unknown', reason: "the agent's hunks do not stand in the file" };
  return { kind: 'text', text: reverted, how: "the agent's hunks reverted" };
}

/** Converts an LF text to a line ending. */
export function withEol(text: string, eol: '\n' | '\r\n'): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, '\r\n');
}
