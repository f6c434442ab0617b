/**
 * A file's text as bytes on disk and as the agent sees it (pure). The agent reads LF text and
 * writes LF text; the file keeps its BOM and line endings, and a write changes only the range
 * whose text changed, so every untouched byte (mixed line endings included) stays as it was.
 * Only UTF-8 round-trips exactly; anything else is refused rather than decoded with U+FFFD.
 */

export type Eol = '\n' | '\r\n';

/** Why a file's bytes are not served as text. */
export type UnreadableReason = 'binary' | 'utf16' | 'not-utf8';

export type DecodedFile = { ok: true; text: string; bom: boolean } | { ok: false; reason: UnreadableReason };

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Decodes a file's bytes as UTF-8 (BOM kept aside), refusing what would not round-trip. */
export function decodeFileBytes(bytes: Uint8Array): DecodedFile {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    return { ok: false, reason: 'utf16' };
  }
  // Buffer's indexOf is a memchr: 0.5 ms for 10 MB, where Uint8Array.includes took 7-10 ms.
  if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(0) !== -1) return { ok: false, reason: 'binary' };
  const bom = bytes.length >= 3 && UTF8_BOM.every((b, i) => bytes[i] === b);
  try {
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bom ? bytes.subarray(3) : bytes);
    return { ok: true, text, bom };
  } catch {
    return { ok: false, reason: 'not-utf8' };
  }
}

/**
 * The bytes read, as a plain Uint8Array over the same memory: `new Uint8Array(buffer)` copied
 * them (10 MB more outside the heap per read of a 10 MB file, three reads per agent edit, which
 * brought on "external memory" full collections of 20–100 ms). A Buffer carved from Node's shared
 * pool (small reads) is copied, so the bytes never keep or expose their neighbours.
 */
export function plainBytes(buffer: Buffer): Uint8Array {
  return buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength
    ? new Uint8Array(buffer.buffer, 0, buffer.byteLength)
    : new Uint8Array(buffer);
}

/** The bytes of a text, with the BOM when the file had one. */
export function encodeFileText(text: string, bom: boolean): Uint8Array {
  const body = new TextEncoder().encode(text);
  if (!bom) return body;
  const bytes = new Uint8Array(body.length + 3);
  bytes.set(UTF8_BOM, 0);
  bytes.set(body, 3);
  return bytes;
}

/** What the agent is told when a file is not served as text. */
export function unreadableMessage(reason: UnreadableReason, display: string, use: 'read' | 'write'): string {
  const verb = use === 'read' ? 'read' : 'written';
  switch (reason) {
    case 'binary':
      return `${display} is a binary file; it cannot be ${verb} as text.`;
    case 'utf16':
      return `${display} is UTF-16 text; only UTF-8 files can be ${verb} as text, so it was not ${verb}.`;
    case 'not-utf8':
      return `${display} is not UTF-8 text (perhaps Latin-1 or another encoding); it was not ${verb}, so that no character is lost.`;
  }
}

export function normalizeEol(text: string): string {
  // The search for a CR is a memchr; the regular expression walks the whole text even when none.
  return text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
}

/** The line ending most lines of the text use; LF when there is none. */
export function dominantEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** One replacement in a text: `[start, end)` of the old text becomes `text`. */
export interface TextChange {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The smallest single replacement that turns `raw` (any line endings) into `content` (compared
 * with line endings normalized): the common prefix and suffix stay untouched, byte for byte, and
 * new line breaks take the file's dominant line ending (`eol`, else counted in `raw` only when the
 * new text has a line break). Undefined when nothing changed.
 */
export function changedRange(raw: string, content: string, eol?: Eol): TextChange | undefined {
  const before = normalizeEol(raw);
  const after = normalizeEol(content);
  if (before === after) return undefined;
  const max = Math.min(before.length, after.length);
  const prefix = commonPrefixLength(before, after, max);
  const suffix = commonSuffixLength(before, after, max - prefix);
  const [start, end] = rawOffsets(raw, [prefix, before.length - suffix]);
  const inserted = after.slice(prefix, after.length - suffix);
  if (!inserted.includes('\n')) return { start, end, text: inserted };
  const lineEnd = eol ?? dominantEol(raw);
  return { start, end, text: lineEnd === '\n' ? inserted : inserted.replace(/\n/g, lineEnd) };
}

/**
 * A file's bytes with one change applied, as the parts to write in order: the untouched bytes
 * before and after the change are the file's own (no copy), only the changed text is encoded.
 * `raw` is `bytes` decoded (valid UTF-8, BOM aside). Encoding the whole 10 MB text instead held
 * the extension host for 10–20 ms for a one-line edit, besides joining the text first.
 */
export function changedBytes(bytes: Uint8Array, raw: string, bom: boolean, change: TextChange): Uint8Array[] {
  let { start, end, text } = change;
  // Widened to whole surrogate pairs: a byte offset exists only between whole characters.
  if (start > 0 && isHighSurrogate(raw.charCodeAt(start - 1))) {
    start--;
    text = raw[start] + text;
  }
  if (end < raw.length && isLowSurrogate(raw.charCodeAt(end))) {
    text += raw[end];
    end++;
  }
  const head = (bom ? 3 : 0) + Buffer.byteLength(raw.slice(0, start), 'utf8');
  const tail = bytes.length - Buffer.byteLength(raw.slice(end), 'utf8');
  return [bytes.subarray(0, head), new TextEncoder().encode(text), bytes.subarray(tail)];
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Applies a change to a text. */
export function applyChange(raw: string, change: TextChange | undefined): string {
  return change ? raw.slice(0, change.start) + change.text + raw.slice(change.end) : raw;
}

/**
 * Texts are compared a block at a time (native string equality) before the last block is walked
 * character by character: a 10 MB file with one line changed must not cost a JavaScript loop over
 * ten million characters on the extension host's only thread.
 */
const COMPARE_BLOCK = 4096;

/** Length of the common prefix of `a` and `b`, at most `max`. */
export function commonPrefixLength(a: string, b: string, max = Math.min(a.length, b.length)): number {
  let n = 0;
  while (n + COMPARE_BLOCK <= max && a.slice(n, n + COMPARE_BLOCK) === b.slice(n, n + COMPARE_BLOCK)) n += COMPARE_BLOCK;
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** Length of the common suffix of `a` and `b`, at most `max`. */
export function commonSuffixLength(a: string, b: string, max = Math.min(a.length, b.length)): number {
  let n = 0;
  while (n + COMPARE_BLOCK <= max && a.slice(a.length - n - COMPARE_BLOCK, a.length - n) === b.slice(b.length - n - COMPARE_BLOCK, b.length - n)) n += COMPARE_BLOCK;
  while (n < max && a.charCodeAt(a.length - 1 - n) === b.charCodeAt(b.length - 1 - n)) n++;
  return n;
}

/**
 * Maps offsets in the LF-normalized text to offsets in the raw text: an LF that was CRLF maps to
 * its CR, so a change never splits a CRLF pair. Jumps from one CRLF to the next (native search).
 */
function rawOffsets(raw: string, normalized: readonly [number, number]): [number, number] {
  const result: [number, number] = [raw.length, raw.length];
  let pairs = 0;
  let next = 0;
  for (let r = raw.indexOf('\r\n'); next < normalized.length; r = raw.indexOf('\r\n', r + 2)) {
    // Where this pair's LF stands in the normalized text (none left: past every offset).
    const at = r === -1 ? Infinity : r - pairs;
    while (next < normalized.length && normalized[next] <= at) {
      result[next] = normalized[next] + pairs;
      next++;
    }
    if (r === -1) break;
    pairs++;
  }
  return result;
}
