import { isAscii } from 'node:buffer';
import { ByteTail } from './byteTail';
import { ChunkedText, utf8Bytes, type TextSlice } from '../../../base/textChunks';

/**
 * Output of a client terminal (`terminal/create`). ACP: over `outputByteLimit`, drop output from
 * the BEGINNING, at a character boundary, and report `truncated: true` in `terminal/output`.
 *
 * Keeps the process's bytes as they came (whole UTF-8 characters per append: `Utf8Carry`
 * upstream) in a reused ring, and decodes only the kept tail when asked: a 100 MB flood under a
 * 1 MiB limit costs a copy per chunk, not the decoding and measuring of 100 MB then dropped.
 */
export class OutputBuffer {
  private readonly tail: ByteTail;
  /** A string append that ended in half a surrogate pair: held until its other half comes. */
  private heldHighSurrogate = '';
  /**
   * The decoded tail while no output came since (an agent polling an idle command asks for the
   * same text again). Dropped as soon as output comes: during a flood, holding a megabyte string
   * until the next poll only got it promoted to the old generation, where only a full garbage
   * collection frees it (10 MB/s of such garbage at 10 polls a second).
   */
  private decoded: { length: number; text: string; bytes: number; cut: boolean } | undefined;

  /** `byteLimit` undefined (or not a finite number) keeps everything; negative counts as 0. */
  constructor(byteLimit?: number) {
    const limit = byteLimit === undefined || !Number.isFinite(byteLimit) ? Infinity : Math.max(0, Math.floor(byteLimit));
    this.tail = new ByteTail(limit);
  }

  /** Appends text (a message of ours, e.g. a failure to start), encoded as UTF-8. */
  append(text: string): void {
    text = this.heldHighSurrogate + text;
    this.heldHighSurrogate = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.heldHighSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    if (text) this.appendBytes(encoder.encode(text));
  }

  /** Appends (copies) the process's bytes: whole characters (see `Utf8Carry`). */
  appendBytes(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    this.decoded = undefined;
    this.tail.append(bytes);
  }

  /** What is kept: at most `byteLimit` bytes of UTF-8, the newest output, from a character on. */
  get text(): string {
    return this.decode().text;
  }

  /** Some output was dropped from the beginning. */
  get truncated(): boolean {
    return this.tail.dropped > 0 || this.decode().cut;
  }

  /** UTF-8 byte length of `text`. */
  get byteLength(): number {
    return this.decode().bytes;
  }

  /** The limit this buffer enforces (`Infinity` when none). */
  get byteLimit(): number {
    return this.tail.limit;
  }

  /** Total bytes ever appended (dropped part included): a reader remembers it and asks `readFrom` for what is new. */
  get length(): number {
    return this.tail.length;
  }

  /** The kept output from byte offset `offset` on, decoded; `start`/`end` in bytes. */
  readFrom(offset: number): TextSlice {
    const slice = this.tail.readFrom(offset);
    return { text: decoder.decode(slice.bytes), start: slice.start, end: slice.end };
  }

  private decode(): { text: string; bytes: number; cut: boolean } {
    const length = this.tail.length;
    if (this.decoded?.length === length) return this.decoded;
    const slice = this.tail.readFrom(0);
    if (isAsciiBytes(slice.bytes)) {
      this.decoded = { length, text: asciiText(slice.bytes), bytes: slice.bytes.length, cut: false };
      return this.decoded;
    }
    let text = decoder.decode(slice.bytes);
    let bytes = slice.bytes.length;
    let cut = false;
    // Invalid bytes decode as U+FFFD, 3 bytes in UTF-8 each: what is kept may then encode longer
    // than the limit, and is cut again, as text, on a character.
    if (text.includes('\ufffd') && Number.isFinite(this.tail.limit)) {
      const bounded = new ChunkedText(utf8Bytes, this.tail.limit);
      bounded.append(text);
      cut = bounded.dropped > 0;
      text = bounded.text;
      bytes = bounded.size;
    } else if (text.includes('\ufffd')) {
      bytes = encoder.encode(text).length;
    }
    this.decoded = { length, text, bytes, cut };
    return this.decoded;
  }
}

/** Whether every byte is ASCII (one native scan; `isAscii` is Node ≥ 18.15/19.6). */
const isAsciiBytes = (bytes: Uint8Array): boolean => typeof isAscii === 'function' && isAscii(bytes);

/**
 * ASCII bytes as text (the same text UTF-8 decoding gives), read as Latin-1: Node keeps such a
 * string of 1,031,913 bytes or more outside V8's heap (an external string), where a decoded one
 * is a large object in the old generation, freed only by a full collection: a flood's
 * `terminal/output` polls (the default 1 MiB each, ten a second) made one per poll.
 */
const asciiText = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

const encoder = new TextEncoder();
/** Not fatal: invalid bytes become U+FFFD, as the terminal shows them. */
const decoder = new TextDecoder('utf-8');
