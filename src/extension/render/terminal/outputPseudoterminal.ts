import * as vscode from 'vscode';
import { StringDecoder } from 'node:string_decoder';
import { CrlfConverter, describeCommandEnd, type CommandEnd } from '../../core/terminalText';

const RENDERED_CAP = 1024 * 1024;

/**
 * A read-only terminal that shows a command's output: an agent's display terminal or a client
 * terminal mirrored from `terminal/create`.
 *
 * VS Code drops writes fired before `open()`, so everything is buffered until then. Bytes are
 * decoded with a StringDecoder so a multi-byte character split across chunks survives, and bare
 * `\n` become `\r\n`. After the command ends the terminal stays open so its output stays readable.
 */
export class OutputPseudoterminal implements vscode.Pseudoterminal {
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;

  private readonly decoder = new StringDecoder('utf8');
  private readonly crlf = new CrlfConverter();
  private pending: string[] = [];
  private opened = false;
  private endValue: CommandEnd | undefined;
  private closedByUser = false;
  /** What VS Code has been given (after `open()`), capped: the API reports output as rendered. */
  private delivered = '';

  constructor(
    private readonly options: {
      /** Shown dimmed as the first line, e.g. the command and its cwd. */
      header?: string;
      /** The user closed the terminal: stop what it shows (kill the process). */
      onUserClose?: () => void;
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
    const buffered = this.pending.join('');
    this.pending = [];
    if (buffered) this.deliver(buffered);
  }

  close(): void {
    if (this.closedByUser) return;
    this.closedByUser = true;
    this.options.onUserClose?.();
  }

  /** Appends output: text, or raw bytes decoded as UTF-8 across chunk boundaries. */
  write(chunk: string | Uint8Array): void {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(Buffer.from(chunk));
    if (text) this.emit(this.crlf.convert(text));
  }

  /** Marks the end of the command with a status line; the terminal stays open and readable. */
  end(end: CommandEnd): void {
    if (this.endValue) return;
    this.endValue = end;
    const rest = this.decoder.end();
    if (rest) this.emit(this.crlf.convert(rest));
    const colour = end.exitCode === 0 ? '\x1b[32m' : '\x1b[31m';
    const newline = this.crlf.atLineStart ? '' : '\r\n';
    this.emit(`${newline}${colour}[${describeCommandEnd(end)}]\x1b[0m\r\n`);
  }

  dispose(): void {
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
  }

  /** The text delivered to VS Code so far (the last 1 MB); empty until VS Code opens the terminal. */
  get renderedText(): string {
    return this.delivered;
  }

  private emit(data: string): void {
    if (this.opened) this.deliver(data);
    else this.pending.push(data);
  }

  private deliver(data: string): void {
    this.delivered += data;
    if (this.delivered.length > RENDERED_CAP) this.delivered = this.delivered.slice(-RENDERED_CAP);
    this.writeEmitter.fire(data);
  }
}
