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

const SEPARATOR = /[\r\n]/g;

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

  push(text: string): void {
    let start = 0;
    SEPARATOR.lastIndex = 0;
    for (let match = SEPARATOR.exec(text); match; match = SEPARATOR.exec(text)) {
      this.append(text, start, match.index);
      if (match[0] === '\n') this.endLine();
      else this.afterCarriageReturn = true;
      start = match.index + 1;
    }
    this.append(text, start, text.length);
  }

  /** The stream ended: what is left is the last line. */
  end(): void {
    this.endLine();
  }

  private append(text: string, from: number, to: number): void {
    if (to <= from) return;
    if (this.afterCarriageReturn) {
      // Redrawn in place: what was on this line is gone.
      this.afterCarriageReturn = false;
      this.head = '';
      this.overflow = 0;
    }
    const room = this.options.maxLineChars - this.head.length;
    if (room > 0) this.head += text.slice(from, Math.min(to, from + room));
    this.overflow += Math.max(0, to - from - Math.max(room, 0));
  }

  private endLine(): void {
    const line = this.overflow ? `${this.head}… (${this.overflow} more characters)` : this.head;
    this.head = '';
    this.overflow = 0;
    this.afterCarriageReturn = false;
    if (!line.trim()) return;
    this.options.onLine(line);
    this.kept.push(line);
    if (this.kept.length > this.options.maxLines) this.kept.shift();
  }
}
