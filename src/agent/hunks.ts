/**
 * Applied-change diffs: the contextual hunks (whole changed lines, ±3 context) a completed write or
 * edit shows in place of its call-time snippet. The one module that calls the `diff` package's
 * `structuredPatch` and normalizes its output into ACP-ready diffs, one per hunk, each with a
 * location at its first line in the new file.
 *
 * Only the changed regions are diffed, never whole files: an edit knows its replacement sites,
 * and an overwrite is narrowed to what lies between the common prefix and suffix. Each region is
 * widened to whole lines plus context; regions whose windows overlap share a hunk, as in any
 * unified diff, so a `replace_all` gets one hunk per site when its sites are apart. Above the size
 * or edit-distance bound (the `diff` package's own `maxEditLength` and `timeout`), the result is a
 * whole-file diff instead, so no diff can stall the agent on a 10 MB file.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';
import type { ReplacementSite } from './textEdit';
import type { FileDiff, FileLocation } from './views';

export const CONTEXT_LINES = 3;

export interface DiffLimits {
  /** Above this many characters of changed region (old + new, with context), skip hunks. */
  maxWindowChars: number;
  /** Edit distance (in lines) at which `structuredPatch` gives up. */
  maxEditLength: number;
  /** Wall-clock budget for all `structuredPatch` calls of one mutation. */
  timeoutMs: number;
  /** More hunks than this is no longer a readable card: show the whole file. */
  maxHunks: number;
  /** A whole-file diff drops its old text above this size, to stay well inside ACP's message limit. */
  maxWholeFileChars: number;
}

export const DEFAULT_DIFF_LIMITS: DiffLimits = {
  maxWindowChars: 2_000_000,
  maxEditLength: 2_000,
  timeoutMs: 250,
  maxHunks: 200,
  maxWholeFileChars: 12_000_000,
};

export type WholeFileReason = 'create' | 'unchanged' | 'too-large' | 'edit-distance' | 'too-many-hunks';

export type AppliedDiff =
  | { kind: 'hunks'; diffs: FileDiff[]; locations: FileLocation[] }
  /** Show the file whole: `oldText` → the new content (null: new-file style). */
  | { kind: 'whole-file'; reason: WholeFileReason; oldText: string | null };

/** Offsets of one changed region in the old and new text. */
interface Region {
  beforeStart: number;
  beforeEnd: number;
  afterStart: number;
  afterEnd: number;
}

/** The diff of a whole-content write. `before: null` is a create (or an undiffable binary file). */
export function overwriteDiff(filePath: string, before: string | null, after: string, limits = DEFAULT_DIFF_LIMITS): AppliedDiff {
  if (before === null) return { kind: 'whole-file', reason: 'create', oldText: null };
  if (before === after) return { kind: 'whole-file', reason: 'unchanged', oldText: null };
  const prefix = commonPrefixLength(before, after);
  const suffix = commonSuffixLength(before, after, prefix);
  const region = { beforeStart: prefix, beforeEnd: before.length - suffix, afterStart: prefix, afterEnd: after.length - suffix };
  return regionsDiff(filePath, before, after, [region], limits);
}

/** The diff of an edit, from the sites it replaced: one hunk per site, unless sites are close. */
export function replacementDiff(
  filePath: string,
  before: string | null,
  after: string,
  sites: ReplacementSite[],
  limits = DEFAULT_DIFF_LIMITS,
): AppliedDiff {
  if (before === null || before === '') return { kind: 'whole-file', reason: 'create', oldText: null };
  const regions = sites.map((s) => ({
    beforeStart: s.beforeOffset,
    beforeEnd: s.beforeOffset + s.oldLength,
    afterStart: s.afterOffset,
    afterEnd: s.afterOffset + s.newLength,
  }));
  return regionsDiff(filePath, before, after, regions, limits);
}

function regionsDiff(filePath: string, before: string, after: string, regions: Region[], limits: DiffLimits): AppliedDiff {
  const wholeFile = (reason: WholeFileReason): AppliedDiff => ({
    kind: 'whole-file',
    reason,
    oldText: before.length + after.length <= limits.maxWholeFileChars ? before : null,
  });
  if (regions.length > limits.maxHunks) return wholeFile('too-many-hunks');
  const windows = mergeOverlapping(regions.map((r) => widenToContext(r, before, after)));
  let size = 0;
  for (const w of windows) size += w.beforeEnd - w.beforeStart + (w.afterEnd - w.afterStart);
  if (size > limits.maxWindowChars) return wholeFile('too-large');

  const deadline = Date.now() + limits.timeoutMs;
  const lines = new LineCounter(after);
  const diffs: FileDiff[] = [];
  const locations: FileLocation[] = [];
  for (const w of windows) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return wholeFile('edit-distance');
    const patch = structuredPatch('', '', before.slice(w.beforeStart, w.beforeEnd), after.slice(w.afterStart, w.afterEnd), undefined, undefined, {
      context: CONTEXT_LINES,
      maxEditLength: limits.maxEditLength,
      timeout: remaining,
    });
    if (patch === undefined) return wholeFile('edit-distance');
    const firstLine = lines.lineAt(w.afterStart);
    for (const hunk of patch.hunks) {
      diffs.push({ path: filePath, ...hunkTexts(hunk) });
      locations.push({ path: filePath, line: Math.max(1, firstLine + hunk.newStart) });
    }
    if (diffs.length > limits.maxHunks) return wholeFile('too-many-hunks');
  }
  return { kind: 'hunks', diffs, locations };
}

/** A hunk as old → new text: context and removed lines, context and added lines. */
function hunkTexts(hunk: StructuredPatchHunk): { oldText: string; newText: string } {
  const oldLines: string[] = [];
  const newLines: string[] = [];
  for (const line of hunk.lines) {
    const mark = line[0];
    // '\' marks "No newline at end of file": not content.
    if (mark === ' ' || mark === '-') oldLines.push(line.slice(1));
    if (mark === ' ' || mark === '+') newLines.push(line.slice(1));
  }
  return { oldText: oldLines.join('\n'), newText: newLines.join('\n') };
}

/**
 * Widens a region to whole lines plus context. The text before a region is the same in both
 * versions (up to the previous region), and so is the text after it: the window grows by the same
 * amounts on both sides, which keeps both windows aligned.
 */
function widenToContext(region: Region, before: string, after: string): Region {
  let start = region.beforeStart === 0 ? 0 : before.lastIndexOf('\n', region.beforeStart - 1) + 1;
  for (let i = 0; i < CONTEXT_LINES && start > 0; i++) start = start < 2 ? 0 : before.lastIndexOf('\n', start - 2) + 1;
  const back = region.beforeStart - start;

  const atLineEnd = (text: string, end: number): boolean => end === 0 || text[end - 1] === '\n';
  let forward = 0;
  const nextLineEnd = (from: number): number => {
    const newline = before.indexOf('\n', from);
    return newline === -1 ? before.length : newline + 1;
  };
  if (!atLineEnd(before, region.beforeEnd) || !atLineEnd(after, region.afterEnd)) {
    forward = nextLineEnd(region.beforeEnd) - region.beforeEnd;
  }
  for (let i = 0; i < CONTEXT_LINES && region.beforeEnd + forward < before.length; i++) {
    forward = nextLineEnd(region.beforeEnd + forward) - region.beforeEnd;
  }
  return {
    beforeStart: start,
    beforeEnd: region.beforeEnd + forward,
    afterStart: region.afterStart - back,
    afterEnd: region.afterEnd + forward,
  };
}

/** Windows are in order; overlapping ones become one (their changes share a hunk). */
function mergeOverlapping(windows: Region[]): Region[] {
  const merged: Region[] = [];
  for (const w of windows) {
    const last = merged[merged.length - 1];
    if (last !== undefined && w.beforeStart < last.beforeEnd) {
      merged[merged.length - 1] = { beforeStart: last.beforeStart, beforeEnd: w.beforeEnd, afterStart: last.afterStart, afterEnd: w.afterEnd };
    } else {
      merged.push(w);
    }
  }
  return merged;
}

/** Counts lines up to increasing offsets without rescanning from the start each time. */
class LineCounter {
  private offset = 0;
  private line = 0;
  constructor(private readonly text: string) {}

  /** 0-based line number of `offset`; offsets must not decrease between calls. */
  lineAt(offset: number): number {
    for (let at = this.text.indexOf('\n', this.offset); at !== -1 && at < offset; at = this.text.indexOf('\n', at + 1)) this.line++;
    this.offset = offset;
    return this.line;
  }
}

const CHUNK = 4096;

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  // Whole-chunk comparisons first: native string equality is far faster than a char loop.
  while (i + CHUNK <= n && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Common suffix length, never reaching back into the first `prefix` characters of either. */
function commonSuffixLength(a: string, b: string, prefix: number): number {
  const n = Math.min(a.length, b.length) - prefix;
  let i = 0;
  while (i + CHUNK <= n && a.slice(a.length - i - CHUNK, a.length - i) === b.slice(b.length - i - CHUNK, b.length - i)) i += CHUNK;
  while (i < n && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}
