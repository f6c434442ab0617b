import type { TextPieces } from './textPieces';

/**
 * Growing text kept as a list of chunks under a size limit, dropping from the BEGINNING at a
 * character boundary when over it. Shared by client-terminal buffers (limit in UTF-8 bytes, as
 * ACP's `outputByteLimit` says) and display terminals (limit in string length).
 *
 * Offsets are in UTF-16 code units (JS string indices) counted from the very first character ever
 * appended, so a reader's "what's new since offset N" stays valid after the front is dropped.
 */

/** How text is counted against the limit, and where it may be cut. */
export interface TextMeasure {
  /** Size of `text` in this measure's unit. */
  size(text: string): number;
  /**
   * The shortest prefix of `text` that ends on a character boundary and measures at least
   * `atLeast` (or the whole text): its length in code units and its size.
   */
  prefixCovering(text: string, atLeast: number): { length: number; size: number };
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Size in UTF-16 code units (`string.length`); never cuts a surrogate pair. */
export const utf16Units: TextMeasure = {
  size: (text) => text.length,
  prefixCovering(text, atLeast) {
    let length = Math.min(Math.max(0, Math.ceil(atLeast)), text.length);
    if (length > 0 && length < text.length && isHighSurrogate(text.charCodeAt(length - 1)) && isLowSurrogate(text.charCodeAt(length))) {
      length++;
    }
    return { length, size: length };
  },
};

/** Bytes of one UTF-16 code unit at `i` when encoded as UTF-8, and how many units that character spans. */
function utf8At(text: string, i: number): { bytes: number; units: number } {
  const code = text.charCodeAt(i);
  if (code < 0x80) return { bytes: 1, units: 1 };
  if (code < 0x800) return { bytes: 2, units: 1 };
  if (isHighSurrogate(code) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) return { bytes: 4, units: 2 };
  // A lone surrogate is encoded as U+FFFD: 3 bytes, like the rest of the BMP.
  return { bytes: 3, units: 1 };
}

/** Any character that is not ASCII (one byte in UTF-8). */
const NON_ASCII = /[^\x00-\x7f]/;

/** UTF-8 byte length without Node's Buffer, so this module stays usable anywhere. */
export function utf8Length(text: string): number {
  // Command output is mostly ASCII: one native scan instead of a loop over every character.
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; ) {
    const step = utf8At(text, i);
    bytes += step.bytes;
    i += step.units;
  }
  return bytes;
}

/** Size in UTF-8 bytes; never cuts inside a character (a surrogate pair is one character). */
export const utf8Bytes: TextMeasure = {
  size: utf8Length,
  prefixCovering(text, atLeast) {
    const asciiCandidate = Math.min(text.length, Math.max(0, Math.ceil(atLeast)));
    if (!NON_ASCII.test(text.slice(0, asciiCandidate))) return { length: asciiCandidate, size: asciiCandidate };
    let size = 0;
    let length = 0;
    while (length < text.length && size < atLeast) {
      const step = utf8At(text, length);
      size += step.bytes;
      length += step.units;
    }
    return { length, size };
  },
};

/** What `readFrom` returns: `text` covers offsets [start, end); start > the asked offset when that part was dropped. */
export interface TextSlice {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** What `piecesFrom` returns: `pieces` joined cover offsets [start, end) (see `TextSlice`). */
export interface TextSliceInPieces {
  readonly pieces: TextPieces;
  readonly start: number;
  readonly end: number;
}

interface Chunk {
  text: string;
  size: number;
}

/**
 * Small appends are merged into the last chunk so the chunk count stays proportional to the text
 * kept, not to the number of appends; big ones stay separate so a merge never copies much.
 */
const MERGE_BELOW = 1024;

export class ChunkedText {
  private chunks: Chunk[] = [];
  /** Index of the first live chunk: dropping from the front must not shift the array each time. */
  private head = 0;
  private keptSize = 0;
  private keptLength = 0;
  private droppedLength = 0;

  /** `limit` in the measure's unit; `Infinity` keeps everything. */
  constructor(
    private readonly measure: TextMeasure,
    readonly limit: number,
  ) {}

  append(text: string): void {
    if (!text) return;
    const last = this.chunks.length > this.head ? this.chunks[this.chunks.length - 1] : undefined;
    if (last && isHighSurrogate(last.text.charCodeAt(last.text.length - 1)) && isLowSurrogate(text.charCodeAt(0))) {
      // A surrogate pair split across two appends: keep it whole inside one chunk so it is
      // measured (and dropped) as the one character it is.
      const high = last.text.slice(-1);
      last.text = last.text.slice(0, -1);
      last.size -= this.measure.size(high);
      this.keptSize -= this.measure.size(high);
      this.keptLength -= 1;
      text = high + text;
    }
    const size = this.measure.size(text);
    if (last && last.text.length < MERGE_BELOW && text.length < MERGE_BELOW) {
      last.text += text;
      last.size += size;
    } else if (this.chunks.length === 0) {
      // A literal holds exactly one chunk; a first `push` would reserve 17 slots, and most texts
      // (a message, a short command's output) never grow past one merged chunk.
      this.chunks = [{ text, size }];
    } else {
      this.chunks.push({ text, size });
    }
    this.keptSize += size;
    this.keptLength += text.length;
    this.trim();
  }

  /** Size of what is kept, in the measure's unit. */
  get size(): number {
    return this.keptSize;
  }

  /** Offset just past the last character: everything ever appended, dropped part included. */
  get length(): number {
    return this.droppedLength + this.keptLength;
  }

  /** Code units dropped from the front; the kept text starts at this offset. */
  get dropped(): number {
    return this.droppedLength;
  }

  /** The kept text. Joins the chunks once and keeps the result, so repeated reads are cheap. */
  get text(): string {
    const live = this.chunks.length - this.head;
    if (live === 0) return '';
    if (live > 1) {
      const joined = this.chunks.slice(this.head).map((c) => c.text).join('');
      this.chunks = [{ text: joined, size: this.keptSize }];
      this.head = 0;
    }
    return this.chunks[this.head].text;
  }

  /** The kept text from `offset` on (see `TextSlice` for an offset that was dropped). */
  readFrom(offset: number): TextSlice {
    const { pieces, start, end } = this.piecesFrom(offset);
    return { text: pieces.length === 1 ? pieces[0] : pieces.join(''), start, end };
  }

  /**
   * The same text as `readFrom`, as the chunks it is kept in (the first one cut where `offset`
   * falls), not joined: a reader that passes text on in parts (a terminal panel) never builds one
   * string of it all, which over 128 KB is a large object V8 frees only in a full collection.
   */
  piecesFrom(offset: number): TextSliceInPieces {
    const end = this.length;
    const start = Math.min(end, Math.max(Number.isFinite(offset) ? Math.floor(offset) : 0, this.droppedLength));
    if (start === end) return { pieces: [], start, end };
    // Readers usually want the recent tail: walk back from the end.
    const pieces: string[] = [];
    let chunkStart = end;
    for (let i = this.chunks.length - 1; i >= this.head && chunkStart > start; i--) {
      const chunk = this.chunks[i].text;
      chunkStart -= chunk.length;
      pieces.push(chunkStart >= start ? chunk : chunk.slice(start - chunkStart));
    }
    return { pieces: pieces.reverse(), start, end };
  }

  /** Drops everything kept (offsets go on from `length`). */
  dropFront(): void {
    this.droppedLength += this.keptLength;
    this.keptLength = 0;
    this.keptSize = 0;
    this.chunks = [];
    this.head = 0;
  }

  /** Drops from the front until at most `size` is kept (in the measure's unit), at a character boundary. */
  keepNewest(size: number): void {
    this.trimTo(Math.max(0, size));
  }

  private trim(): void {
    this.trimTo(this.limit);
  }

  private trimTo(limit: number): void {
    while (this.keptSize > limit && this.head < this.chunks.length) {
      const first = this.chunks[this.head];
      const excess = this.keptSize - limit;
      if (first.size <= excess) {
        this.dropChunk(first);
        continue;
      }
      const cut = this.measure.prefixCovering(first.text, excess);
      if (cut.length >= first.text.length) {
        // The character that covers the excess is the chunk's last one (e.g. one emoji).
        this.dropChunk(first);
        continue;
      }
      first.text = first.text.slice(cut.length);
      first.size -= cut.size;
      this.keptSize -= cut.size;
      this.keptLength -= cut.length;
      this.droppedLength += cut.length;
    }
  }

  private dropChunk(chunk: Chunk): void {
    this.keptSize -= chunk.size;
    this.keptLength -= chunk.text.length;
    this.droppedLength += chunk.text.length;
    // Release the text now: the array keeps dropped chunks until it is compacted, and with big
    // chunks (a terminal panel's batches) those would hold many times the limit.
    chunk.text = '';
    this.head++;
    // Compact now and then, so the array does not hold every chunk ever dropped.
    if (this.head > 64 && this.head * 2 > this.chunks.length) {
      this.chunks = this.chunks.slice(this.head);
      this.head = 0;
    }
  }
}
