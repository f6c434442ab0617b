/**
 * UTF-8 encoding of a long text a slice per event-loop turn.
 *
 * `TextEncoder.encode` of a 10 MB text holds the extension host for 15–30 ms in one turn (the
 * "before" side of a large file's diff, served to VS Code as bytes). Encoded into one buffer of
 * the exact size (`Buffer.byteLength` counts without encoding), a slice at a time, the same bytes
 * cost a millisecond or two per turn.
 */

/** Characters encoded per turn: about a millisecond of work. */
export const ENCODE_SLICE_CHARS = 512 * 1024;

export async function encodeSliced(
  text: string,
  options: { sliceChars?: number; nextTurn?: () => Promise<void> } = {},
): Promise<Uint8Array> {
  const sliceChars = Math.max(2, options.sliceChars ?? ENCODE_SLICE_CHARS);
  const encoder = new TextEncoder();
  if (text.length <= sliceChars) return encoder.encode(text);
  const nextTurn = options.nextTurn ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const bytes = new Uint8Array(Buffer.byteLength(text, 'utf8'));
  let read = 0;
  let written = 0;
  while (read < text.length) {
    let end = Math.min(text.length, read + sliceChars);
    // Never split a surrogate pair: each half alone would encode as U+FFFD.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    const result = encoder.encodeInto(text.slice(read, end), bytes.subarray(written));
    read += result.read;
    written += result.written;
    if (read < text.length) await nextTurn();
  }
  return written === bytes.length ? bytes : bytes.subarray(0, written);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
