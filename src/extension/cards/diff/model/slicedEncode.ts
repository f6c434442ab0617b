/**
 * UTF-8 encoding of a long text a slice per event-loop turn.
 *
 * `TextEncoder.encode` of a 10 MB text holds the extension host for 15–30 ms in one turn (the
 * "before" side of a large file's diff, served to VS Code as bytes). Encoded into one buffer of
 * the exact size (`Buffer.byteLength` counts without encoding), a slice at a time, the same bytes
 * cost a millisecond or two per turn.
 *
 * The text may come in pieces (base/textPieces.ts): each is read in place, never joined.
 */
import type { TextPieces } from '../../../base/textPieces';

/** Characters encoded per turn: about a millisecond of work. */
export const ENCODE_SLICE_CHARS = 512 * 1024;

export async function encodeSliced(
  text: string | TextPieces,
  options: { sliceChars?: number; nextTurn?: () => Promise<void> } = {},
): Promise<Uint8Array> {
  const sliceChars = Math.max(2, options.sliceChars ?? ENCODE_SLICE_CHARS);
  const pieces = typeof text === 'string' ? [text] : text;
  const encoder = new TextEncoder();
  const chars = pieces.reduce((sum, piece) => sum + piece.length, 0);
  if (chars <= sliceChars) return encoder.encode(pieces.join(''));
  const nextTurn = options.nextTurn ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  // Each piece counted alone: a surrogate pair split between two pieces counts 6 bytes for its 4,
  // never fewer, so the buffer is always large enough (and cut to what was written).
  const bytes = new Uint8Array(pieces.reduce((sum, piece) => sum + Buffer.byteLength(piece, 'utf8'), 0));
  let written = 0;
  let first = true;
  for (const slice of slicesOf(pieces, sliceChars)) {
    if (!first) await nextTurn();
    first = false;
    written += encoder.encodeInto(slice, bytes.subarray(written)).written;
  }
  return written === bytes.length ? bytes : bytes.subarray(0, written);
}

/**
 * The pieces cut into slices of at most `sliceChars` (one more when a pair is carried over),
 * never ending inside a surrogate pair: each half alone would encode as U+FFFD.
 */
function* slicesOf(pieces: TextPieces, sliceChars: number): Generator<string> {
  let carried = '';
  for (const piece of pieces) {
    for (let read = 0; read < piece.length; ) {
      const end = Math.min(piece.length, read + sliceChars);
      let slice = carried + piece.slice(read, end);
      read = end;
      carried = '';
      if (isHighSurrogate(slice.charCodeAt(slice.length - 1))) {
        // Its low half, if any, starts the next slice (of this piece or the next one).
        carried = slice.slice(-1);
        slice = slice.slice(0, -1);
      }
      if (slice.length > 0) yield slice;
    }
  }
  if (carried) yield carried;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
