import { ChunkedText, utf8Bytes, type TextSlice } from './textChunks';

/**
 * Output of a client terminal (`terminal/create`). ACP: over `outputByteLimit`, drop output from
 * the BEGINNING, at a character boundary, and report `truncated: true` in `terminal/output`.
 *
 * Feed it decoded text (a StringDecoder upstream keeps multi-byte characters split across process
 * chunks intact); the limit is enforced on the UTF-8 encoding of what is kept.
 */
export class OutputBuffer {
  private readonly chunks: ChunkedText;

  /** `byteLimit` undefined (or not a finite number) keeps everything; negative counts as 0. */
  constructor(byteLimit?: number) {
    const limit = byteLimit === undefined || !Number.isFinite(byteLimit) ? Infinity : Math.max(0, Math.floor(byteLimit));
    this.chunks = new ChunkedText(utf8Bytes, limit);
  }

  append(text: string): void {
    this.chunks.append(text);
  }

  /** What is kept: at most `byteLimit` bytes of UTF-8, the newest output. */
  get text(): string {
    return this.chunks.text;
  }

  /** Some output was dropped from the beginning. */
  get truncated(): boolean {
    return this.chunks.dropped > 0;
  }

  /** UTF-8 byte length of `text`. */
  get byteLength(): number {
    return this.chunks.size;
  }

  /** The limit this buffer enforces (`Infinity` when none). */
  get byteLimit(): number {
    return this.chunks.limit;
  }

  /**
   * Total string length ever appended (dropped part included): a live mirror (pseudoterminal)
   * remembers it and asks `readFrom` for what is new.
   */
  get length(): number {
    return this.chunks.length;
  }

  readFrom(offset: number): TextSlice {
    return this.chunks.readFrom(offset);
  }
}
