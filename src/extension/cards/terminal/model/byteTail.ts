/**
 * The newest bytes of a stream under a byte limit, dropping from the BEGINNING, in one ring
 * buffer that is reused (grown up to the limit as output comes, never beyond): a command flooding
 * 100 MB through a pipe costs a copy of each chunk into it, nothing is decoded on the way in, and
 * the pipe's chunks die young (holding them would promote them and their memory to the old
 * generation, where only full collections free it). Only what is read back (at most `limit`
 * bytes) is copied out and decoded.
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

/** The first ring allocated; it doubles as output comes, up to the limit. */
const INITIAL_CAPACITY = 4096;

export class ByteTail {
  private ring = new Uint8Array(0);
  /** Index in `ring` of the oldest kept byte. */
  private head = 0;
  private keptBytes = 0;
  private droppedBytes = 0;

  /** `limit` in bytes; `Infinity` keeps everything. */
  constructor(readonly limit: number) {}

  /** Copies `bytes` in (the caller may reuse them). */
  append(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (bytes.length >= this.limit) {
      // Only the end of this chunk is kept: everything before it goes.
      this.droppedBytes += this.keptBytes + bytes.length - this.limit;
      this.keptBytes = 0;
      this.head = 0;
      bytes = bytes.subarray(bytes.length - this.limit);
      if (bytes.length === 0) return;
    }
    this.reserve(Math.min(this.limit, this.keptBytes + bytes.length));
    const capacity = this.ring.length;
    const at = (this.head + this.keptBytes) % capacity;
    const first = Math.min(bytes.length, capacity - at);
    this.ring.set(first === bytes.length ? bytes : bytes.subarray(0, first), at);
    if (first < bytes.length) this.ring.set(bytes.subarray(first), 0);
    this.keptBytes += bytes.length;
    const over = this.keptBytes - capacity;
    if (over > 0) {
      // The ring is full (its capacity is the limit): the newest bytes overwrote the oldest.
      this.head = (this.head + over) % capacity;
      this.keptBytes = capacity;
      this.droppedBytes += over;
    }
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
   * `newest`: at most the last this many bytes (from a character on: fewer when that cuts one).
   */
  readFrom(offset: number, newest = Infinity): ByteSlice {
    const end = this.length;
    const asked = Math.min(end, Math.max(Number.isFinite(offset) ? Math.floor(offset) : 0, this.droppedBytes));
    let start = Math.max(asked, end - newest);
    if (start > 0 && (start === this.droppedBytes || start > asked)) {
      for (let skipped = 0; start < end && skipped < 3 && isContinuation(this.byteAt(start - this.droppedBytes)); skipped++) start++;
    }
    const out = new Uint8Array(end - start);
    if (out.length > 0) {
      const capacity = this.ring.length;
      const from = (this.head + start - this.droppedBytes) % capacity;
      const first = Math.min(out.length, capacity - from);
      out.set(this.ring.subarray(from, from + first));
      if (first < out.length) out.set(this.ring.subarray(0, out.length - first), first);
    }
    return { bytes: out, start, end };
  }

  /** Drops everything kept (offsets go on from `length`; the ring is kept for what comes next). */
  dropFront(): void {
    this.droppedBytes += this.keptBytes;
    this.keptBytes = 0;
    this.head = 0;
  }

  private byteAt(index: number): number {
    return this.ring[(this.head + index) % this.ring.length];
  }

  /** Grows the ring to hold `needed` bytes (doubling; at most the limit), oldest byte first. */
  private reserve(needed: number): void {
    if (needed <= this.ring.length) return;
    const capacity = Math.min(this.limit, Math.max(needed, INITIAL_CAPACITY, this.ring.length * 2));
    const ring = new Uint8Array(capacity);
    if (this.keptBytes > 0) {
      const first = Math.min(this.keptBytes, this.ring.length - this.head);
      ring.set(this.ring.subarray(this.head, this.head + first));
      if (first < this.keptBytes) ring.set(this.ring.subarray(0, this.keptBytes - first), first);
    }
    this.ring = ring;
    this.head = 0;
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

/** Text is encoded into the ring through a reused buffer of this many bytes, a piece at a time. */
const ENCODE_PIECE_BYTES = 64 * 1024;

/**
 * The newest text written somewhere (what a terminal panel was given), kept as UTF-8 in a
 * reused ring of at most `limitBytes` and decoded only when read. Holding the written strings
 * themselves kept each of a flood's deliveries (128 KB strings, 20 a second) alive for the
 * next megabyte of output: long enough to be promoted to the old generation, where only a full
 * garbage collection frees them. Encoding copies each string into the ring and lets it die young.
 *
 * What is read back is what was written, from a character on, except that a lone surrogate
 * reads back as U+FFFD (as UTF-8, and VS Code's own transport, carries it).
 */
export class TextTail {
  private readonly tail: ByteTail;
  private scratch: Uint8Array | undefined;
  /** The decoded text while nothing was written since. */
  private decoded: string | undefined;

  constructor(readonly limitBytes: number) {
    this.tail = new ByteTail(limitBytes);
  }

  append(text: string): void {
    if (!text) return;
    this.decoded = undefined;
    const scratch = (this.scratch ??= new Uint8Array(ENCODE_PIECE_BYTES));
    // encodeInto stops before a character that does not fit: pieces never split one.
    for (let at = 0; at < text.length; ) {
      const { read, written } = encoder.encodeInto(at === 0 ? text : text.substring(at), scratch);
      this.tail.append(scratch.subarray(0, written));
      at += read;
    }
  }

  /** The kept text (the newest `limitBytes` of UTF-8, from a character on). */
  get text(): string {
    return (this.decoded ??= textDecoder.decode(this.tail.readFrom(0).bytes));
  }
}

const encoder = new TextEncoder();
const textDecoder = new TextDecoder('utf-8');
