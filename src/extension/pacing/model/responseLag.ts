/**
 * How late the window answers what it was sent (pure): a chat patch answered by the webview's
 * acknowledgement once drawn, a tree refresh answered by VS Code asking for the children.
 */

/**
 * How long the delay of the last answer still counts once nothing waits for one: a window that
 * answered late stays "late" until it answers on time, or for this long after its last answer (a
 * storm that ended must not keep its last late answer for ever, and the window that answered all
 * it was sent has caught up: half a second bridges the gaps between redraws while behind).
 */
export const ANSWER_STALE_MS = 500;

/**
 * What waits longer than this is taken as never to be answered (VS Code need not fetch a refreshed
 * node it does not show): it counts as one late answer, then is forgotten, so the loop cannot stay
 * behind for ever on a message the window will not answer.
 */
export const NEVER_ANSWERED_MS = 5000;

export class ResponseLag {
  /** What was sent and not answered yet, oldest first: its number and when it went. */
  private readonly waiting: { seq: number; at: number }[] = [];
  private last: { delayMs: number; at: number } | undefined;
  private nextSeq = 1;

  /**
   * Something was sent at `now`; returns its number (the answer names it). What is not `timed`
   * gets a number but no wait: its answer counts as the answer of what was timed before it.
   */
  sent(now: number, timed = true): number {
    const seq = this.nextSeq++;
    if (timed) this.waiting.push({ seq, at: now });
    return seq;
  }

  /**
   * The window answered everything up to `seq` (it answers in order; `Infinity`: all of it). An
   * answer for something not waiting (sent before a `forget`) changes nothing.
   */
  answered(seq: number, now: number): void {
    let oldest: number | undefined;
    while (this.waiting.length > 0 && (this.waiting[0] as { seq: number }).seq <= seq) {
      const entry = this.waiting.shift() as { seq: number; at: number };
      oldest ??= entry.at;
    }
    if (oldest !== undefined) this.last = { delayMs: now - oldest, at: now };
  }

  /** Nothing sent before is answered any more (the webview started over, the view was hidden). */
  forget(): void {
    this.waiting.length = 0;
    this.last = undefined;
  }

  get pending(): number {
    return this.waiting.length;
  }

  /** How far behind the window is at `now`: the oldest unanswered's age, else the last answer's delay while fresh. */
  lagAt(now: number): number {
    let expired: number | undefined;
    while (this.waiting.length > 0 && now - (this.waiting[0] as { at: number }).at > NEVER_ANSWERED_MS) expired ??= this.waiting.shift()?.at;
    if (expired !== undefined) this.last = { delayMs: now - expired, at: now };
    const oldest = this.waiting[0];
    const waitingMs = oldest ? now - oldest.at : 0;
    const lastMs = this.last && now - this.last.at < ANSWER_STALE_MS ? this.last.delayMs : 0;
    return Math.max(waitingMs, lastMs);
  }
}
