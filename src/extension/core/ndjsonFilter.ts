/**
 * Splits a byte stream into lines and keeps only those that look like JSON-RPC messages.
 *
 * Agents are third-party programs: some print banners or debug lines on stdout. Handing those to
 * the SDK would fail the parse; instead each such line is reported (to be logged) and skipped,
 * and the connection keeps working.
 */
export class JsonLineFilter {
  private partial = '';
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly onSkipped: (line: string) => void) {}

  /** Returns the complete JSON lines in this chunk, each terminated with `\n`. */
  push(chunk: Uint8Array): string {
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline === -1) {
      this.partial = text;
      return '';
    }
    this.partial = text.slice(lastNewline + 1);
    return this.keep(text.slice(0, lastNewline).split('\n'));
  }

  /** Flushes a last unterminated line at end of stream. */
  end(): string {
    const rest = this.partial + this.decoder.decode();
    this.partial = '';
    return rest ? this.keep([rest]) : '';
  }

  private keep(lines: string[]): string {
    let out = '';
    for (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      const trimmed = line.trim();
      if (!trimmed) continue;
      if (trimmed.startsWith('{') && trimmed.endsWith('}')) out += trimmed + '\n';
      else this.onSkipped(line);
    }
    return out;
  }
}
