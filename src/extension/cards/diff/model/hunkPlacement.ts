/**
 * Puts a card's hunks back in their file (pure). Agents send an edit as hunks — whole changed
 * lines with a few lines of context — which read better in place: the file as it was before,
 * beside the file as it is now, with VS Code's own line numbers. That "before" is the current file
 * with each hunk's new text turned back into its old text.
 */

export interface Hunk {
  readonly oldText: string;
  readonly newText: string;
}

/**
 * The file before the hunks were applied, or undefined when a hunk cannot be placed for sure: its
 * new text is not in the file (the file changed since, or this is a call-time snippet not yet
 * applied), it is not made of whole lines, or the hunks are out of order. Texts are LF.
 */
export function revertHunks(fileText: string, hunks: readonly Hunk[]): string | undefined {
  return revertHunkPieces(fileText, hunks)?.reduce((out, piece) => out + piece, '');
}

/**
 * The same, as the pieces it is made of: slices of `fileText` (which share its characters, no
 * copy) and the hunks' old texts. A 10 MB file's "before" side is encoded for VS Code from these
 * without ever being copied into one string.
 */
export function revertHunkPieces(fileText: string, hunks: readonly Hunk[]): string[] | undefined {
  if (hunks.length === 0) return undefined;
  const pieces: string[] = [];
  let pos = 0;
  for (const hunk of hunks) {
    if (hunk.newText === '') return undefined;
    const at = findWholeLines(fileText, hunk.newText, pos);
    if (at === -1) return undefined;
    pieces.push(fileText.slice(pos, at), hunk.oldText);
    pos = at + hunk.newText.length;
  }
  pieces.push(fileText.slice(pos));
  return pieces;
}

/** The first place from `from` where `text` stands as whole lines, or -1. */
function findWholeLines(fileText: string, text: string, from: number): number {
  for (let at = fileText.indexOf(text, from); at !== -1; at = fileText.indexOf(text, at + 1)) {
    const end = at + text.length;
    const startsLine = at === 0 || fileText[at - 1] === '\n';
    const endsLine = end === fileText.length || fileText[end] === '\n' || text.endsWith('\n');
    if (startsLine && endsLine) return at;
  }
  return -1;
}
