/**
 * Render intents: how a tool asks for its calls and results to be shown. A tool declares ONE intent
 * per call and per result, tagged by a required `card`; the bridge (bridge.ts) switches on the tag
 * and ends in `assertNever`, so adding a card kind breaks compilation exactly where it must be
 * rendered. The unions are closed on purpose: a variant the bridge silently dropped would be worse
 * than a compile error.
 *
 * Views are produced by pure functions (`presentCall(args)`, `presentResult(args, outcome, meta)`)
 * that run both live and on session replay, so the same cards come out both times.
 */
import type { ContentBlock, ToolKind } from '@agentclientprotocol/sdk';

/** A file the card points at; `path` is absolute, `line` 1-based. */
export interface FileLocation {
  path: string;
  line?: number;
}

/** A text diff of one file (or one hunk of it). `oldText: null` means a new file. */
export interface FileDiff {
  path: string;
  oldText: string | null;
  newText: string;
}

// ---- presentCall → ToolCallView ----

export interface GenericCallView {
  card: 'generic';
  title: string;
  kind?: ToolKind;
  rawInput?: unknown;
  content?: ContentBlock[];
  locations?: FileLocation[];
}

/** A shell command. `description` is shown above the terminal; `cwd` heads it. */
export interface TerminalCallView {
  card: 'terminal';
  title: string;
  description?: string;
  cwd?: string;
}

export interface DiffCallView {
  card: 'diff';
  title: string;
  diffs: FileDiff[];
  locations?: FileLocation[];
}

export type ToolCallView = GenericCallView | TerminalCallView | DiffCallView;

// ---- presentResult → ToolResultView ----

export interface GenericResultView {
  card: 'generic';
  title?: string;
  content?: ContentBlock[];
}

/** How a command ended. The bridge derives the ```console fallback from this one shape. */
export interface TerminalResultView {
  card: 'terminal';
  title?: string;
  output?: string;
  exitCode?: number;
  signal?: string;
}

/**
 * The change a mutation actually applied: one diff per hunk (whole changed lines, ±3 context),
 * with a location per hunk, or one whole-file diff. Replaces the call-time snippet.
 */
export interface DiffResultView {
  card: 'diff';
  title?: string;
  diffs: FileDiff[];
  locations?: FileLocation[];
}

export type ToolResultView = GenericResultView | TerminalResultView | DiffResultView;

/** A plain text content block; the commonest content of generic cards. */
export function textBlock(text: string): ContentBlock {
  return { type: 'text', text };
}
