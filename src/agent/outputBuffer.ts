/** Bounded keeping of command output, so a chatty process cannot exhaust the agent's memory. */

export const OUTPUT_LIMIT_CHARS = 1024 * 1024;

/**
 * Keeps the first `limit` characters of a foreground command's output. `append` returns exactly
 * the text to stream to the display terminal, so what was streamed live and what is stored (and
 * replayed) are the same characters.
 */
export class HeadCapture {
  private readonly parts: string[] = [];
  private length = 0;
  private truncated = false;

  constructor(private readonly limit = OUTPUT_LIMIT_CHARS) {}

  append(data: string): string {
    if (this.truncated) return '';
    const room = this.limit - this.length;
    let kept = data;
    if (data.length > room) {
      this.truncated = true;
      kept = `${data.slice(0, room)}\n[output truncated after ${this.limit} characters]\n`;
    }
    this.parts.push(kept);
    this.length += kept.length;
    return kept;
  }

  text(): string {
    return this.parts.join('');
  }
}

/**
 * Keeps the last `limit` characters of a long-running background task, with absolute offsets so a
 * reader can ask for "everything since my last read" and learn what was dropped meanwhile.
 */
export class RollingOutput {
  private buffer = '';
  /** Absolute offset of `buffer[0]` in the task's whole output. */
  private dropped = 0;

  constructor(private readonly limit = OUTPUT_LIMIT_CHARS) {}

  append(data: string): void {
    this.buffer += data;
    if (this.buffer.length > this.limit) {
      const cut = this.buffer.length - this.limit;
      this.buffer = this.buffer.slice(cut);
      this.dropped += cut;
    }
  }

  /** Absolute offset of the end of the output so far. */
  get end(): number {
    return this.dropped + this.buffer.length;
  }

  /** Output from absolute offset `from`; `lost` counts characters dropped before they were read. */
  since(from: number): { text: string; lost: number } {
    const start = Math.max(from, this.dropped);
    return { text: this.buffer.slice(start - this.dropped), lost: start - from };
  }
}

/** Shortens text for the model by cutting its middle: the start and the end say the most. */
export function middleTruncate(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit / 3);
  const tail = limit - head;
  return `${text.slice(0, head)}\n[… ${text.length - limit} characters omitted …]\n${text.slice(text.length - tail)}`;
}
