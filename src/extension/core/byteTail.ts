/**
 * The newest bytes of a stream, kept as the chunks they arrived in (by reference, never copied nor
 * decoded on the way in) under a byte limit, dropping from the BEGINNING. A command flooding
 * 100 MB through a pipe costs an array push per chunk: only what is read back (the kept tail, at
 * most `limit` bytes) is ever copied and decoded.
 *
 * Offsets count bytes from the very first one ever appended, so a reader's "what's new since
 * offset N" stays valid after the front is dropped. Feed it whole UTF-8 characters (see
 * `Utf8Carry`); a cut made by the limit may land inside one, and reads skip past it.
 */

/** A UTF-8 continuation byte (10xxxxxx): never the first byte of a character. */
const isContinuation = (byte: number): boolean => (byte & 0xc0) === 0x80;

export interface ByteSlice {
  readonly bytes: Uint8Array;
  /** Offset of `bytes[0]`: above the asked offset when that part was dropped. */
  readonly start: number;
  readonly end: number;
}

export class ByteTail {
  private chunks: Uint8Array[] = [];
  /** Index of the first live chunk: dropping from the front must not shift the array each time. */
  private head = 0;
  private keptBytes = 0;
  private droppedBytes = 0;

  /** `limit` in bytes; `Infinity` keeps everything. */
  constructor(readonly limit: number) {}

  /** Keeps `bytes` by reference: the caller must not change them afterwards. */
  append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.chunks.push(bytes);
    this.keptBytes += bytes.length;
    this.trim();
  }

  /** Bytes kept. */
  get size(): number {
    return this.keptBytes;
  }

  /** Offset just past the last byte: everything ever appended, dropped part included. */
  get length(): number {
    return this.droppedBytes + this.keptBytes;
  }

  /** Bytes dropped from the front; the kept bytes start at this offset. */
  get dropped(): number {
    return this.droppedBytes;
  }

  /**
   * A copy of the kept bytes from `offset` on, starting on a character: where the limit cut
   * inside one, its remaining bytes are skipped (`start` says where the slice really begins).
   */
  readFrom(offset: number): ByteSlice {
    const end = this.length;
    let start = Math.min(end, Math.max(Number.isFinite(offset) ? Math.floor(offset) : 0, this.droppedBytes));
    const out = new Uint8Array(end - start);
    let written = 0;
    let chunkStart = this.droppedBytes;
    for (let i = this.head; i < this.chunks.length; i++) {
      const chunk = this.chunks[i];
      const chunkEnd = chunkStart + chunk.length;
      if (chunkEnd > start) {
        const from = Math.max(0, start - chunkStart);
        out.set(from === 0 ? chunk : chunk.subarray(from), written);
        written += chunk.length - from;
      }
      chunkStart = chunkEnd;
    }
    let skip = 0;
    if (start === this.droppedBytes && start > 0) while (skip < out.length && skip < 3 && isContinuation(out[skip])) skip++;
    start += skip;
    return { bytes: skip ? out.subarray(skip) : out, start, end };
  }

  /** Drops everything kept (offsets go on from `length`). */
  dropFront(): void {
    this.droppedBytes += this.keptBytes;
    this.keptBytes = 0;
    this.chunks = [];
    this.head = 0;
  }

  private trim(): void {
    while (this.keptBytes > this.limit && this.head < this.chunks.length) {
      const first = this.chunks[this.head];
      const excess = this.keptBytes - this.limit;
      if (first.length <= excess) {
        this.keptBytes -= first.length;
        this.droppedBytes += first.length;
        // Release the chunk now: the array keeps dropped slots until it is compacted.
        this.chunks[this.head] = EMPTY;
        this.head++;
        if (this.head > 64 && this.head * 2 > this.chunks.length) {
          this.chunks = this.chunks.slice(this.head);
          this.head = 0;
        }
        continue;
      }
      // A view, not a copy (the chunk's memory stays until the whole chunk is dropped).
      this.chunks[this.head] = first.subarray(excess);
      this.keptBytes -= excess;
      this.droppedBytes += excess;
    }
  }
}

const EMPTY = new Uint8Array(0);

/**
 * Splits a byte stream into runs of whole UTF-8 characters: a character cut between two chunks
 * is held back (at most 3 bytes) and given with the next chunk, so two streams interleaved into
 * one tail (stdout and stderr) never splice into each other's characters.
 */
export class Utf8Carry {
  private carry: Uint8Array | undefined;

  /** The whole characters available now (a view of `chunk` when nothing was carried). */
  push(chunk: Uint8Array): Uint8Array {
    let bytes = chunk;
    if (this.carry) {
      bytes = new Uint8Array(this.carry.length + chunk.length);
      bytes.set(this.carry);
      bytes.set(chunk, this.carry.length);
      this.carry = undefined;
    }
    const cut = incompleteTailStart(bytes);
    if (cut === bytes.length) return bytes;
    this.carry = bytes.slice(cut);
    return bytes.subarray(0, cut);
  }

  /** What is held back at the end of the stream (an unfinished character, decoded as U+FFFD). */
  end(): Uint8Array {
    const rest = this.carry ?? EMPTY;
    this.carry = undefined;
    return rest;
  }
}

/**
 * Where an unfinished character at the end of `bytes` starts (`bytes.length` when the last one is
 * whole or invalid: an invalid sequence is never completed by what follows, so it is not held).
 */
function incompleteTailStart(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= 3 && back <= n; back++) {
    const byte = bytes[n - back];
    if (isContinuation(byte)) continue;
    // The lead byte: how long its character is.
    const needed = byte >= 0xf5 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc2 ? 2 : 1;
    return needed > back ? n - back : n;
  }
  return n;
}
