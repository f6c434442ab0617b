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

/**
 * One JSON line, without its line end: its text, or (at least `rawLineBytes` long) its UTF-8
 * bytes, left for the consumer to decode where it parses them (a worker thread).
 */
export type JsonLine = string | Uint8Array;

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
    /** JSON lines at least this long come out as bytes, not decoded. */
    private readonly rawLineBytes = Infinity,
  ) {}

  /**
   * The complete JSON lines in this chunk. Throws {@link LineTooLongError}.
   *
   * A line wholly inside the chunk is decoded straight from it (Buffer's utf8 slice): no copy of
   * its bytes and no typed array per line, whose allocation and collection cost more than the
   * parse of a typical message.
   */
  push(chunk: Uint8Array): JsonLine[] {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const lines: JsonLine[] = [];
    let start = 0;
    while (start <= buffer.length) {
      const newline = buffer.indexOf(NEWLINE, start);
      const end = newline === -1 ? buffer.length : newline;
      if (newline !== -1 && this.kind === 'blank') {
        const line = this.wholeLine(buffer, start, end);
        if (line !== undefined) lines.push(line);
        start = newline + 1;
        continue;
      }
      if (end > start) this.feed(buffer.subarray(start, end));
      if (newline === -1) break;
      const line = this.finishLine();
      if (line !== undefined) lines.push(line);
      start = newline + 1;
    }
    return lines;
  }

  /** Flushes a last unterminated line at end of stream. */
  end(): JsonLine[] {
    const line = this.finishLine();
    return line !== undefined ? [line] : [];
  }

  /** A line that starts and ends in this chunk (nothing of it carried over). */
  private wholeLine(buffer: Buffer, start: number, end: number): JsonLine | undefined {
    let first = start;
    while (first < end && isSpace(buffer[first])) first++;
    if (first === end) return undefined;
    let last = end;
    while (last > first && isSpace(buffer[last - 1])) last--;
    if (buffer[first] === OPEN_BRACE && buffer[last - 1] === CLOSE_BRACE) {
      if (last - first > this.maxLineBytes) throw new LineTooLongError(this.maxLineBytes);
      return last - first >= this.rawLineBytes ? buffer.subarray(first, last) : buffer.toString('utf8', first, last);
    }
    const prefix = buffer.toString('utf8', first, Math.min(end, first + SKIPPED_PREFIX_BYTES)).replace(/\r$/, '');
    this.onSkipped(prefix, end - first);
    return undefined;
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

  private finishLine(): JsonLine | undefined {
    const { kind, pieces, bytes } = this;
    this.reset();
    if (kind === 'blank') return undefined;
    const kept = concat(pieces);
    if (kind === 'json') {
      let end = bytes;
      while (end > 0 && isSpace(kept[end - 1])) end--;
      if (kept[end - 1] === CLOSE_BRACE) return end >= this.rawLineBytes ? kept.subarray(0, end) : this.decoder.decode(kept.subarray(0, end));
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

/** Joins the pieces once (a line that spans reads). */
function concat(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0];
  let size = 0;
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
