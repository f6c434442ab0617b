/**
 * A long text kept as the pieces it is made of (pure): slices of a file's text — which share the
 * file's characters, no copy — and the short texts put between them. A 10 MB file's "before" side
 * joined with `+` was flattened into one new 10 MB string on its first read, 6–25 ms in one turn
 * of the extension host; as pieces it is encoded and compared without ever being joined.
 */

/** A text given as its pieces, in order (joined, they are the text). */
export type TextPieces = readonly string[];

/** Whether two texts in pieces are the same text, however they are cut (no piece joined). */
export function samePieces(a: TextPieces, b: TextPieces): boolean {
  if (a === b) return true;
  let i = 0;
  let j = 0;
  let atA = 0;
  let atB = 0;
  for (;;) {
    while (i < a.length && atA === a[i].length) {
      i++;
      atA = 0;
    }
    while (j < b.length && atB === b[j].length) {
      j++;
      atB = 0;
    }
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    const n = Math.min(a[i].length - atA, b[j].length - atB);
    if (a[i].slice(atA, atA + n) !== b[j].slice(atB, atB + n)) return false;
    atA += n;
    atB += n;
  }
}

/**
 * Whether a text in pieces is the lines given joined with LF (a document's lines, read one at a
 * time: its whole text is never joined, nor any piece).
 */
export function samePiecesAsLines(pieces: TextPieces, lineCount: number, lineAt: (index: number) => string): boolean {
  let i = 0;
  let at = 0;
  const matches = (text: string): boolean => {
    for (let read = 0; read < text.length; ) {
      while (i < pieces.length && at === pieces[i].length) {
        i++;
        at = 0;
      }
      if (i === pieces.length) return false;
      const n = Math.min(pieces[i].length - at, text.length - read);
      const same = n === text.length ? pieces[i].startsWith(text, at) : pieces[i].slice(at, at + n) === text.slice(read, read + n);
      if (!same) return false;
      at += n;
      read += n;
    }
    return true;
  };
  for (let line = 0; line < lineCount; line++) {
    if ((line > 0 && !matches('\n')) || !matches(lineAt(line))) return false;
  }
  while (i < pieces.length && at === pieces[i].length) {
    i++;
    at = 0;
  }
  return i === pieces.length;
}
