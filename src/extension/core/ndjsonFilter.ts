/**
 * Splits a byte stream into lines and keeps only those that look like JSON-RPC messages.
 *
 * Agents are third-party programs: some print banners or debug lines on stdout. Handing those to
 * the SDK would fail the parse; instead each such line is reported (to be logged) and skipped,
 * and the connection keeps working.
 *
 * Linear in the bytes, however long a line is: each chunk is scanned once, a line's pieces are
 * kept in a list and joined once at its newline. A line that does not start with `{` is decided
 * at its first byte: only a short prefix of it is kept (for the log), the rest is counted and
 * dropped. A JSON line longer than `maxLineBytes` is an error ({@link LineTooLongError}): no
 * client could read it, and holding it all would only cost memory.
 */

/** Bytes of a skipped line kept for the log. */
export const SKIPPED_PREFIX_BYTES = 200;

export class LineTooLongError extends Error {
  constructor(readonly maxLineBytes: number) {
    super(`the agent sent a message larger than ${formatBytes(maxLineBytes)} (the limit of ACP messages)`);
    this.name = 'LineTooLongError';
  }
}

const NEWLINE = 0x0a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0b || byte === 0x0c;

/** What the filter knows of the current line from its first non-blank byte. */
type LineKind = 'blank' | 'json' | 'skipped';

export class JsonLineFilter {
  private kind: LineKind = 'blank';
  /** The current line's bytes from its first non-blank one (JSON), or its prefix (skipped). */
  private pieces: Uint8Array[] = [];
  private bytes = 0;
  private readonly decoder = new TextDecoder('utf-8');

  constructor(
    /** A skipped line: its first bytes, decoded, and its full size in bytes. */
    private readonly onSkipped: (linePrefix: string, lineBytes: number) => void,
    private readonly maxLineBytes = Infinity,
  ) {}

  /** The complete JSON lines in this chunk, each ending with `\n`. Throws {@link LineTooLongError}. */
  push(chunk: Uint8Array): Uint8Array[] {
    const lines: Uint8Array[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      if (end > start) this.feed(chunk.subarray(start, end));
      if (newline === -1) break;
      const line = this.finishLine();
      if (line) lines.push(line);
      start = newline + 1;
    }
    return lines;
  }

  /** Flushes a last unterminated line at end of stream. */
  end(): Uint8Array[] {
    const line = this.finishLine();
    return line ? [line] : [];
  }

  private feed(segment: Uint8Array): void {
    if (this.kind === 'blank') {
      let first = 0;
      while (first < segment.length && isSpace(segment[first])) first++;
      if (first === segment.length) return;
      this.kind = segment[first] === OPEN_BRACE ? 'json' : 'skipped';
      segment = segment.subarray(first);
    }
    if (this.kind === 'json') {
      if (this.bytes + segment.length > this.maxLineBytes) {
        this.reset();
        throw new LineTooLongError(this.maxLineBytes);
      }
      this.pieces.push(segment);
    } else if (this.bytes < SKIPPED_PREFIX_BYTES) {
      this.pieces.push(segment.subarray(0, SKIPPED_PREFIX_BYTES - this.bytes));
    }
    this.bytes += segment.length;
  }

  private finishLine(): Uint8Array | undefined {
    const { kind, pieces, bytes } = this;
    this.reset();
    if (kind === 'blank') return undefined;
    const kept = concat(pieces, kind === 'json' ? 1 : 0);
    if (kind === 'json') {
      let end = bytes;
      while (end > 0 && isSpace(kept[end - 1])) end--;
      if (kept[end - 1] === CLOSE_BRACE) {
        kept[end] = NEWLINE;
        return kept.subarray(0, end + 1);
      }
    }
    const prefix = this.decoder.decode(kept.subarray(0, Math.min(SKIPPED_PREFIX_BYTES, bytes))).replace(/\r$/, '');
    this.onSkipped(prefix, bytes);
    return undefined;
  }

  private reset(): void {
    this.kind = 'blank';
    this.pieces = [];
    this.bytes = 0;
  }
}

/** Joins the pieces once, with `spare` bytes of room at the end. */
function concat(pieces: readonly Uint8Array[], spare: number): Uint8Array {
  let size = spare;
  for (const piece of pieces) size += piece.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

function formatBytes(bytes: number): string {
  return bytes >= 2 ** 20 ? `${Math.round(bytes / 2 ** 20)} MiB` : `${bytes} bytes`;
}
