import { ByteTail } from './byteTail';
import { ChunkedText, utf16Units } from '../../../base/textChunks';

/**
 * Text shaping for pseudoterminals (pure). A pseudoterminal is a raw tty: a bare `\n` moves down
 * without returning to column 0, so output must use `\r\n`.
 */

/** Converts `\n` to `\r\n` across chunk boundaries, never doubling an existing `\r\n`. */
export class CrlfConverter {
  private lastWasCR = false;
  private atLineStartValue = true;

  /** Whether the text converted so far ends at the start of a line. */
  get atLineStart(): boolean {
    return this.atLineStartValue;
  }

  /** Linear and native (one regex pass): a flood of output must not be walked character by character. */
  convert(text: string): string {
    if (!text) return text;
    // A `\r\n` split across two chunks must not become `\r\r\n`.
    const splitPair = this.lastWasCR && text.charCodeAt(0) === 0x0a;
    const body = splitPair ? text.slice(1) : text;
    const out = (splitPair ? '\n' : '') + body.replace(BARE_OR_CRLF, '\r\n');
    this.lastWasCR = text.charCodeAt(text.length - 1) === 0x0d;
    this.atLineStartValue = text.endsWith('\n');
    return out;
  }
}

const BARE_OR_CRLF = /\r?\n/g;

/**
 * What a terminal panel is given while it is closed or busy, bounded: a flood keeps its newest
 * `maxChars` (a panel shows only its recent lines anyway) and says how much it skipped. Output
 * comes as text, or as a process's raw bytes: those wait undecoded (the newest `maxChars` bytes)
 * and are decoded when taken, so what a flood skips is never decoded. Pure, so the
 * pseudoterminal stays a thin adapter.
 */
export class PendingOutput {
  private readonly text: ChunkedText;
  /** Raw bytes not yet decoded; they come after everything in `text`. */
  private readonly bytes: ByteTail;
  /** Streaming: a character split between two byte pushes is decoded whole. */
  private readonly decoder = new TextDecoder('utf-8');
  /** Byte offset decoded so far (what `bytes` dropped before it was skipped). */
  private bytesDecoded = 0;
  /** Dropped offset already reported to the panel. */
  private reportedDropped = 0;
  /** Characters the writer skipped before pushing (see `skip`), not yet reported. */
  private skippedByWriter = 0;
  /** Raw bytes dropped undecoded, not yet reported. */
  private skippedBytes = 0;
  private lastTakeOverflowed = false;

  constructor(readonly maxChars: number) {
    this.text = new ChunkedText(utf16Units, maxChars);
    this.bytes = new ByteTail(maxChars);
  }

  get isEmpty(): boolean {
    return this.text.size === 0 && this.skippedByWriter === 0 && this.bytes.length === this.bytesDecoded;
  }

  push(data: string): void {
    this.decodeBytes();
    this.text.append(data);
  }

  /** Raw output, copied into a bounded ring and decoded as UTF-8 when taken. */
  pushBytes(data: Uint8Array): void {
    this.bytes.append(data);
  }

  /** The byte stream ended: an unfinished character at its end is decoded (as U+FFFD). */
  endBytes(): void {
    this.decodeBytes();
    const rest = this.decoder.decode();
    if (rest) this.text.append(rest);
  }

  /**
   * The writer skipped `count` characters of output it knew would be dropped (more than
   * `maxChars` arrived at once): they are reported like dropped ones, without being converted
   * and pushed only to be thrown away. What is pending now came before them, and would be pushed
   * out by the `maxChars` that follow: it is dropped too, so the note stands where the gap is.
   */
  skip(count: number): void {
    if (count <= 0) return;
    this.decodeBytes();
    this.text.dropFront();
    this.skippedByWriter += count;
  }

  /** Output was left out since the last `take` (more came than it keeps): the next one will say so. */
  get overflowing(): boolean {
    return this.text.dropped > this.reportedDropped || this.skippedByWriter > 0 || this.skippedBytes > 0 || this.bytes.dropped > this.bytesDecoded;
  }

  /**
   * The last `take` left part of the output out: more came since the one before than a panel
   * is given at once (a flood), so giving it more often would only show more of what scrolls by.
   */
  get overflowed(): boolean {
    return this.lastTakeOverflowed;
  }

  /**
   * A flood is on: output is being left out now, or the last `take` left some out. It ends with
   * the first take that gives all that came, so a flood that slows (a busy host, a slower machine)
   * but still brings more than a live tail stays one.
   */
  get flooding(): boolean {
    return this.overflowing || this.lastTakeOverflowed;
  }

  /** Everything pending, after a dim note when part of it was skipped; empties the buffer. */
  take(showChars?: number): string {
    return this.takePieces(showChars).join('');
  }

  /**
   * What `take` returns, in the parts it is kept in (the note first): none over `PIECE_CHARS`
   * unless it was pushed so, so a panel given a flood's newest 128 Ki never makes one string of
   * it (a large object, over 128 KB, which V8 frees only in a full collection).
   *
   * `showChars`: give at most the newest this many characters (the rest is skipped, and said so):
   * a panel in a flood needs only a live tail, not all it would keep.
   */
  takePieces(showChars = Infinity): string[] {
    this.decodeBytes(showChars);
    if (this.text.size > showChars) this.text.keepNewest(showChars);
    const skipped = this.text.dropped - this.reportedDropped + this.skippedByWriter;
    const skippedBytes = this.skippedBytes;
    this.skippedByWriter = 0;
    this.skippedBytes = 0;
    const { pieces } = this.text.piecesFrom(0);
    this.text.dropFront();
    this.reportedDropped = this.text.dropped;
    this.lastTakeOverflowed = skipped > 0 || skippedBytes > 0;
    const what = [skippedBytes > 0 ? `${skippedBytes} bytes` : '', skipped > 0 ? `${skipped} characters` : ''].filter(Boolean).join(' and ');
    if (!what) return [...pieces];
    return [`\x1b[0m\r\n\x1b[2m[… ${what} of output not shown …]\x1b[0m\r\n`, ...pieces];
  }

  /**
   * Moves the pending bytes into `text`, decoded: at most `maxChars` of them (or `newestBytes`),
   * the newest (a character is at least a byte: no more characters than that).
   */
  private decodeBytes(newestBytes = Infinity): void {
    if (this.bytes.length === this.bytesDecoded) return;
    const slice = this.bytes.readFrom(this.bytesDecoded, newestBytes);
    this.bytes.dropFront();
    if (slice.start > this.bytesDecoded) {
      // A gap: what was pending came before it (the note goes where the gap is), and a
      // character the decoder holds half of is gone with it.
      this.skippedBytes += slice.start - this.bytesDecoded;
      this.decoder.decode();
      this.text.dropFront();
    }
    this.bytesDecoded = slice.end;
    // A piece at a time (the streaming decoder completes a character cut between two): each
    // string stays a small one that dies young.
    for (let at = 0; at < slice.bytes.length; at += PIECE_CHARS) {
      const decoded = this.decoder.decode(slice.bytes.subarray(at, at + PIECE_CHARS), { stream: true });
      if (decoded) this.text.append(decoded);
    }
  }
}

/**
 * Pending raw bytes are decoded this many at a time (giving at most this many characters): well
 * under V8's 128 KB large-object threshold even as two-byte text.
 */
export const PIECE_CHARS = 32 * 1024;

export interface CommandEnd {
  exitCode: number | null;
  signal: string | null;
}

/** The status line written when a command ends: `[exit code 3]`, `[killed by SIGTERM]`. */
export function describeCommandEnd(end: CommandEnd): string {
  if (end.signal !== null) return `killed by ${end.signal}`;
  if (end.exitCode === null) return 'ended';
  return `exit code ${end.exitCode}`;
}
