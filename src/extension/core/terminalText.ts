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

  convert(text: string): string {
    if (!text) return text;
    let out = '';
    let previousWasCR = this.lastWasCR;
    for (const ch of text) {
      // A `\r\n` split across two chunks must not become `\r\r\n`.
      if (ch === '\n' && !previousWasCR) out += '\r';
      out += ch;
      previousWasCR = ch === '\r';
    }
    this.lastWasCR = previousWasCR;
    this.atLineStartValue = text.endsWith('\n');
    return out;
  }
}

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
