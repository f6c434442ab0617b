/**
 * Guards the agent's stdin against messages over the ACP size limit, in front of the SDK's
 * newline-delimited JSON reader.
 *
 * The SDK's reader ends the connection on a line over its limit, and with it every session: one
 * pasted log or attached file too many, and the agent is gone without the client learning why.
 * This guard splits the bytes into lines first. A line within the limit goes on to the SDK in one
 * piece with its newline (so the SDK splits it without copying); a line over the limit is never
 * held whole: once it passes the limit, only its first bytes are kept (to read its id) and the
 * rest is counted and dropped up to its newline. Then {@link oversizedOutcome} decides who hears
 * of it, and the connection goes on with the next line.
 */
import * as acp from '@agentclientprotocol/sdk';
import { assertNever } from '../../protocol/assertNever';
import { readJsonHead } from './jsonHead';
import { oversizedOutcome } from './oversized';

/** Bytes of an oversized line kept to read its id (JSON-RPC clients write it within the first few dozen). */
export const HEAD_BYTES = 64 * 1024;

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineGuardDeps {
  /** The limit of one message, without its line end: the SDK reader's own. */
  maxMessageBytes: number;
  /** Writes a message to the client (stdout). */
  sendToClient(message: acp.AnyResponse): void;
  warn(message: string): void;
}

/** A transform for the agent's stdin bytes (see the file comment). */
export function guardLines(deps: LineGuardDeps): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new TextEncoder();
  const lines = new LineGuard(deps.maxMessageBytes, (head, bytes) => {
    const { action, note } = oversizedOutcome(readJsonHead(new TextDecoder().decode(head)), bytes, deps.maxMessageBytes);
    deps.warn(note);
    switch (action.kind) {
      case 'answer':
        deps.sendToClient(action.response);
        return undefined;
      case 'fail':
        return encoder.encode(`${JSON.stringify(action.response)}\n`);
      case 'skip':
        return undefined;
      default:
        return assertNever(action, 'oversized action');
    }
  });
  return new TransformStream({
    transform(chunk, controller) {
      for (const piece of lines.push(chunk)) controller.enqueue(piece);
    },
    flush(controller) {
      for (const piece of lines.end()) controller.enqueue(piece);
    },
  });
}

/**
 * An oversized line, by its first {@link HEAD_BYTES} and its size without the line end; what it
 * returns goes on to the reader in the line's place.
 */
export type OnOversized = (head: Uint8Array, bytes: number) => Uint8Array | undefined;

/** The splitting itself, apart from the streams. Chunks given to it must not change afterwards. */
export class LineGuard {
  /** The current line's bytes so far, while it is within the limit. */
  private pieces: Uint8Array[] = [];
  private bytes = 0;
  /** The current line is over the limit: its head, kept while the rest is counted and dropped. */
  private skippedHead: Uint8Array | undefined;

  constructor(
    private readonly maxMessageBytes: number,
    private readonly onOversized: OnOversized,
  ) {}

  /** What goes on to the reader: whole lines, each with its newline. */
  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    // Lines wholly inside the chunk go on as one run of it, uncopied.
    let runStart = 0;
    let start = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, start)) {
      const fresh = this.bytes === 0 && this.skippedHead === undefined;
      if (!(fresh && lineBytes(newline - start, chunk[newline - 1]) <= this.maxMessageBytes)) {
        if (start > runStart) out.push(chunk.subarray(runStart, start));
        const line = this.finishLine(chunk.subarray(start, newline));
        if (line !== undefined) out.push(line);
        runStart = newline + 1;
      }
      start = newline + 1;
    }
    if (start > runStart) out.push(chunk.subarray(runStart, start));
    if (start < chunk.length) this.feed(chunk.subarray(start));
    return out;
  }

  /** A last line without a newline, at the end of the input. */
  end(): Uint8Array[] {
    if (this.bytes === 0 && this.skippedHead === undefined) return [];
    const line = this.finishLine(new Uint8Array(0));
    return line !== undefined ? [line] : [];
  }

  /** Part of a line, without a newline in it. */
  private feed(segment: Uint8Array): void {
    if (segment.length === 0) return;
    if (this.skippedHead === undefined) {
      // One byte more than the limit may be a CR the line end drops.
      if (this.bytes + segment.length <= this.maxMessageBytes + 1) {
        this.pieces.push(segment);
        this.bytes += segment.length;
        return;
      }
      this.skippedHead = concat([...this.pieces, segment.subarray(0, HEAD_BYTES)], HEAD_BYTES);
      this.pieces = [];
    }
    this.bytes += segment.length;
  }

  /** The line ends with `last` (its bytes before the newline). */
  private finishLine(last: Uint8Array): Uint8Array | undefined {
    this.feed(last);
    const { pieces, skippedHead } = this;
    const lastPiece = pieces.at(-1);
    const bytes = skippedHead !== undefined ? this.bytes : lineBytes(this.bytes, lastPiece?.[lastPiece.length - 1]);
    this.pieces = [];
    this.bytes = 0;
    this.skippedHead = undefined;
    if (skippedHead !== undefined || bytes > this.maxMessageBytes) {
      return this.onOversized(skippedHead ?? concat(pieces, HEAD_BYTES), bytes);
    }
    return concat([...pieces, NEWLINE_BYTES], Infinity);
  }
}

const NEWLINE_BYTES = Uint8Array.of(NEWLINE);

/** A line's size as the SDK reader counts it: without a CR before its newline. */
function lineBytes(length: number, lastByte: number | undefined): number {
  return length > 0 && lastByte === CARRIAGE_RETURN ? length - 1 : length;
}

/** The first `limit` bytes of the pieces, joined. */
function concat(pieces: readonly Uint8Array[], limit: number): Uint8Array {
  let size = 0;
  for (const piece of pieces) size += piece.length;
  const out = new Uint8Array(Math.min(size, limit));
  let at = 0;
  for (const piece of pieces) {
    if (at >= out.length) break;
    const part = piece.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}
