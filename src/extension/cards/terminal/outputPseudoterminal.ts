import * as vscode from 'vscode';
import { CrlfConverter, PendingOutput, describeCommandEnd, type CommandEnd } from './model/terminalText';
import { TextTail } from './model/byteTail';
import type { TerminalPanel } from './clientTerminals';

/** What `renderedText` remembers of the output given to VS Code, in UTF-8 bytes. */
const RENDERED_CAP = 1024 * 1024;
/**
 * Output waiting for the panel (not yet open, or between two deliveries): a flood keeps its newest
 * part. 128 Ki characters is about a default scrollback (1,000 lines) of long lines; with a delivery
 * every 50 ms a panel is given at most ~2.5 MB/s. Each delivery is serialised (and, remotely,
 * compressed) by VS Code on this same thread: at 8 MB/s that was most of a flood's cost to the host.
 */
const PENDING_CAP = 128 * 1024;
/** Deliveries to the panel are batched this often: a flood costs the host a few writes a second, not one per chunk. */
const DELIVER_EVERY_MS = 50;
/**
 * While output comes faster than a delivery carries (each one skips part of it), deliveries are
 * this far apart: a flood scrolls by too fast to read either way, and each delivery is serialised
 * on this thread and, in code-server, compressed (zlib, 64 ms for one frame in a profiled 100 MB
 * flood): 5 deliveries a second of the newest 128 Ki instead of 20 cut that work by 4.
 */
const FLOOD_DELIVER_EVERY_MS = 200;
/**
 * While output comes faster than a delivery carries, a delivery gives only its newest this many
 * characters (over a hundred lines: more than a panel shows at once), the rest said skipped: a
 * live tail, kept until a delivery fits in it. Every character given is serialised here,
 * compressed (remote and browser VS Code), then parsed and drawn by the window's terminal, on the
 * machine the host and the command share:
 * a 100 MB flood sent the window 0.5–1 MB of it, now 0.13–0.25 MB. Once the command ended, the
 * last delivery gives all that is pending (up to PENDING_CAP, contiguous with the tail shown
 * before), so what the panel ends with is the output's end, as before.
 */
const FLOOD_SHOW_CHARS = 16 * 1024;

/**
 * A read-only terminal that shows a command's output: an agent's display terminal or a client
 * terminal mirrored from `terminal/create`.
 *
 * VS Code drops writes fired before `open()`, so output is buffered until then, and batched after:
 * both bounded (PENDING_CAP, the newest output; a note says how much was skipped), so a command
 * printing 100 MB costs the host memory near what a panel shows, not the flood. Bytes wait
 * undecoded and are decoded on delivery (a multi-byte character split across chunks whole), and
 * bare `\n` become `\r\n`. After the command ends the terminal stays open so its output stays readable.
 */
export class OutputPseudoterminal implements vscode.Pseudoterminal, TerminalPanel {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  private readonly nameEmitter = new vscode.EventEmitter<string>();
  /** VS Code renames the panel on this (a name given before `open()` is sent when it opens). */
  readonly onDidChangeName = this.nameEmitter.event;
  private renamed: string | undefined;
  /** `open()` has returned: VS Code takes a name now (see `open`). */
  private namesTaken = false;
  private disposed = false;

  private readonly crlf = new CrlfConverter();
  /**
   * Output not yet delivered, as it came (bytes decoded and line ends converted on delivery, so
   * what a flood skips is never decoded nor converted).
   */
  private readonly pending = new PendingOutput(PENDING_CAP);
  /** The output so far ends a line (where the end-of-command status line goes). */
  private atLineStart = true;
  private deliverTimer: NodeJS.Timeout | undefined;
  private opened = false;
  private endValue: CommandEnd | undefined;
  private closedByUser = false;
  /**
   * What VS Code has been given (after `open()`), capped: the API reports output as rendered.
   * Copied into a ring rather than holding the delivered strings (see TextTail).
   */
  private readonly delivered = new TextTail(RENDERED_CAP);

  constructor(
    private readonly options: {
      /** Shown dimmed as the first line, e.g. the command and its cwd. */
      header?: string;
      /** The user closed the terminal: stop what it shows (kill the process). */
      onUserClose?: () => void;
      /** How often output is delivered when it is not a flood (ms; DELIVER_EVERY_MS when absent): longer while the window is behind. */
      deliverEvery?: () => number;
    } = {},
  ) {
    if (options.header) this.emit(`\x1b[2m${options.header}\x1b[0m\r\n`);
  }

  get ended(): CommandEnd | undefined {
    return this.endValue;
  }

  get isOpen(): boolean {
    return this.opened;
  }

  open(): void {
    this.opened = true;
    // VS Code tells the window the terminal is ready only after open() returns, and until then
    // 1.139 drops a pseudoterminal's name for the one it was created with (1.99 took it): the
    // name waits until open() has returned, so it arrives after "ready" on every version.
    queueMicrotask(() => {
      this.namesTaken = true;
      if (this.renamed !== undefined && !this.disposed) this.nameEmitter.fire(this.renamed);
    });
    this.deliverPending();
  }

  /** Renames the panel (now, or once it has opened: VS Code drops a name given before). */
  rename(name: string): void {
    this.renamed = name;
    if (this.namesTaken) this.nameEmitter.fire(name);
  }

  close(): void {
    if (this.closedByUser) return;
    this.closedByUser = true;
    this.options.onUserClose?.();
  }

  /**
   * Appends output: text, or raw bytes (copied undecoded until delivered; decoded as UTF-8
   * across chunk boundaries).
   */
  write(chunk: string | Uint8Array): void {
    if (typeof chunk === 'string') {
      if (chunk) this.emit(chunk);
      return;
    }
    if (chunk.length === 0) return;
    this.pending.pushBytes(chunk);
    this.atLineStart = chunk[chunk.length - 1] === 0x0a;
    this.deliverSoon();
  }

  /**
   * Appends text given in parts, as one write (delivered together, as `write` of them joined
   * would be): a writer that keeps its text in parts passes them on without joining them.
   */
  writePieces(pieces: readonly string[]): void {
    let last = '';
    for (const piece of pieces) {
      if (!piece) continue;
      this.pending.push(piece);
      last = piece;
    }
    if (!last) return;
    this.atLineStart = last.endsWith('\n');
    this.deliverSoon();
  }

  /**
   * How much output a burst may bring and still be shown whole: a writer that has more at once
   * gives only the newest `backlogChars` and `skip`s the rest.
   */
  get backlogChars(): number {
    return this.pending.maxChars;
  }

  /** `count` characters of output were left out before `write` (reported like the panel's own skips). */
  skip(count: number): void {
    if (count <= 0) return;
    this.pending.skip(count);
    this.deliverSoon();
  }

  /** Marks the end of the command with a status line; the terminal stays open and readable. */
  end(end: CommandEnd): void {
    if (this.endValue) return;
    this.endValue = end;
    this.pending.endBytes();
    const colour = end.exitCode === 0 ? '\x1b[32m' : '\x1b[31m';
    const newline = this.atLineStart ? '' : '\r\n';
    this.emit(`${newline}${colour}[${describeCommandEnd(end)}]\x1b[0m\r\n`);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.deliverTimer);
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
    this.nameEmitter.dispose();
  }

  /** The text delivered to VS Code so far (the last 1 MB); empty until VS Code opens the terminal. */
  get renderedText(): string {
    return this.delivered.text;
  }

  private emit(data: string): void {
    this.pending.push(data);
    this.atLineStart = data.endsWith('\n');
    this.deliverSoon();
  }

  private deliverSoon(): void {
    if (this.opened && this.deliverTimer === undefined) {
      // The first write after a quiet spell goes out at once; a burst waits for the next batch.
      this.deliverPending();
      this.armDeliverTimer();
    }
  }

  private armDeliverTimer(): void {
    this.deliverTimer = setTimeout(() => {
      this.deliverTimer = undefined;
      if (this.pending.isEmpty) return;
      this.deliverPending();
      this.armDeliverTimer();
    }, this.pending.overflowed ? Math.max(FLOOD_DELIVER_EVERY_MS, this.options.deliverEvery?.() ?? 0) : (this.options.deliverEvery?.() ?? DELIVER_EVERY_MS));
  }

  private deliverPending(): void {
    if (this.pending.isEmpty) return;
    // In the parts it is pending in, each converted and given on its own: VS Code joins the
    // writes of one turn into one message to the window, and no string here is over 128 KB (a
    // large object: joining, converting and encoding a flood's 128 Ki at once made four of them per
    // delivery, garbage that only a full collection frees). Converting text that already has CRLF
    // (the header, notes, status lines) leaves it as it is.
    // A flood that slowed so that 200 ms no longer overflow PENDING_CAP still scrolls by too fast
    // to read: given whole again, it would send the window up to 128 Ki a delivery.
    const showChars = this.pending.flooding && !this.endValue ? FLOOD_SHOW_CHARS : Infinity;
    for (const piece of this.pending.takePieces(showChars)) {
      const data = this.crlf.convert(piece);
      if (!data) continue;
      this.delivered.append(data);
      this.writeEmitter.fire(data);
    }
  }
}
