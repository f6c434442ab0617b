import { normalizeEol } from '../../../workspace/model/fileText';

/**
 * Titles of the editors that show a diff card (pure). A person should read from the tab alone
 * which file it is and what the agent did to it.
 */

export interface DiffTitleInput {
  /** The file as displayed: relative to the workspace where possible. */
  displayPath: string;
  /** `oldText` was null or absent: the agent created the file. */
  isNewFile: boolean;
  /** 0-based position among the card's diffs of the same file, and their count. */
  hunk?: { index: number; count: number };
  /** The tool call's display title, e.g. "Edit src/a.ts". */
  callTitle: string;
}

/** A short verb for what the agent did, taken from the call title when it names one. */
export function actionOf(callTitle: string, isNewFile: boolean): string {
  if (isNewFile) return 'New File';
  const first = callTitle.trim().split(/\s+/)[0] ?? '';
  return /^[A-Z][a-zA-Z]{1,15}$/.test(first) ? first : 'Agent Edit';
}

/** e.g. `src/a.ts (Edit)`, `src/a.ts (Edit 2/3)`, `notes/new.md (New File)`. */
export function diffEditorTitle(input: DiffTitleInput): string {
  const action = actionOf(input.callTitle, input.isNewFile);
  const hunk = input.hunk && input.hunk.count > 1 ? ` ${input.hunk.index + 1}/${input.hunk.count}` : '';
  return `${input.displayPath} (${action}${hunk})`;
}

/** Compares a diff's new text with a file's content, ignoring line-ending style. */
export function isWholeFileContent(newText: string, fileText: string): boolean {
  return normalizeEol(newText) === normalizeEol(fileText);
}
