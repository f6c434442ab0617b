/**
 * The lines of a text stream nobody parses (an agent's stderr), for the log and for the message
 * shown when the agent dies: split on `\n`, `\r\n` and `\r`, each line capped, the last few kept.
 *
 * Bounded and linear whatever the program writes: a progress bar redrawn with `\r` for 100 MB
 * keeps one capped line (a `\r` not followed by `\n` starts the line over, as a terminal shows it,
 * and an overwritten line is never logged), and a line without any newline keeps only its head.
 */
export interface LineTailOptions {
  /** Characters kept of one line; the rest is counted in a note. */
  maxLineChars: number;
  /** Lines kept in `lines`. */
  maxLines: number;
  /** Each complete line, already capped (blank lines are skipped). */
  onLine: (line: string) => void;
}

const CARRIAGE_RETURN = 0x0d;

export class LineTail {
  private readonly kept: string[] = [];
  /** Head of the current line, at most `maxLineChars`. */
  private head = '';
  /** Characters of the current line beyond `head`. */
  private overflow = 0;
  /** The last character seen was a `\r`: a `\n` next ends the line, anything else starts it over. */
  private afterCarriageReturn = false;

  constructor(private readonly options: LineTailOptions) {}

  /** The last `maxLines` lines, oldest first. */
  get lines(): readonly string[] {
    return this.kept;
  }

  /** Linear, with native searches only: a progress bar's many `\r`s are not visited one by one. */
  push(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline === -1) {
        this.appendSegment(text, start, text.length, false);
        return;
      }
      this.appendSegment(text, start, newline, true);
      this.endLine();
      start = newline + 1;
    }
  }

  /** Text between two `\n`s (or up to the chunk's end): only what follows its last `\r` stays on the line. */
  private appendSegment(text: string, from: number, to: number, endsLine: boolean): void {
    // `\r\n` ends a line; a `\r` at the chunk's end may be the first half of one.
    let trailingCarriageReturn = false;
    while (to > from && text.charCodeAt(to - 1) === CARRIAGE_RETURN) {
      to--;
      trailingCarriageReturn = !endsLine;
    }
    const lastCarriageReturn = to > from ? text.lastIndexOf('\r', to - 1) : -1;
    if (lastCarriageReturn >= from) {
      this.resetLine();
      from = lastCarriageReturn + 1;
    }
    this.append(text, from, to);
    if (trailingCarriageReturn) this.afterCarriageReturn = true;
  }

  /** The stream ended: what is left is the last line. */
  end(): void {
    this.endLine();
  }

  private append(text: string, from: number, to: number): void {
    if (to <= from) return;
    // Redrawn in place: what was on this line is gone.
    if (this.afterCarriageReturn) this.resetLine();
    const room = this.options.maxLineChars - this.head.length;
    if (room > 0) this.head += text.slice(from, Math.min(to, from + room));
    this.overflow += Math.max(0, to - from - Math.max(room, 0));
  }

  private resetLine(): void {
    this.head = '';
    this.overflow = 0;
    this.afterCarriageReturn = false;
  }

  private endLine(): void {
    const line = this.overflow ? `${this.head}… (${this.overflow} more characters)` : this.head;
    this.resetLine();
    if (!line.trim()) return;
    this.options.onLine(line);
    this.kept.push(line);
    if (this.kept.length > this.options.maxLines) this.kept.shift();
  }
}
